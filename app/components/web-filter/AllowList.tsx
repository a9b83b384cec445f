import { SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";

/** Sites that always open, whatever the categories say: each with Remove, and a field to add one. */
export function AllowList({
  hosts,
  newHost,
  onNewHost,
  error,
}: {
  hosts: string[];
  newHost: string;
  onNewHost: (v: string) => void;
  error: string | null;
}) {
  const busy = useIsSubmitting({ intent: "add" });
  return (
    <section className="card settings-section" id="allow" aria-labelledby="allow-title">
      <h2 id="allow-title">Always allowed sites</h2>
      <p className="muted small">A site here opens even when its category is blocked; its subdomains too.</p>
      {hosts.length ? (
        <ul className="wf-hosts">
          {hosts.map((h) => (
            <li key={h}>
              <input type="hidden" name="allow" value={h} />
              <span className="wf-host">{h}</span>
              <button type="submit" name="remove" value={h} className="btn btn-outline btn-small" aria-label={`Remove ${h}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">No sites yet.</p>
      )}
      <div className="field">
        <label htmlFor="newHost">Site to allow</label>
        <div className="wf-add">
          <input
            id="newHost"
            name="newHost"
            type="text"
            inputMode="url"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="example.com"
            value={newHost}
            onChange={(e) => onNewHost(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "newHost-error" : undefined}
          />
          <SubmitButton busy={busy} name="intent" value="add" className="btn btn-outline">
            Add
          </SubmitButton>
        </div>
        {error ? (
          <p className="field-error" id="newHost-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
    </section>
  );
}
