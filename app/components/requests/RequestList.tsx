import { Form, Link } from "@remix-run/react";
import { formatDateTime } from "#core/format";
import { SubmitButton } from "~/components/forms";
import type { RequestButton } from "~/rules/requests";
import { useIsSubmitting } from "~/utils/hooks";
import { AppIcon } from "~/components/AppIcon";

export interface RequestItem {
  id: string;
  packageName: string;
  title: string;
  icon: string | null;
  remarks: string | null;
  label: string;
  createdAt: string;
  button: RequestButton;
  /** The popup's link (Install, Extend, UnInstall's "are you sure?"), with the page's other view state kept. */
  openHref: string | null;
}

/**
 * Spec 2 §2 /requests: each Pending request with icon, title or package name, remarks, type label and time; a paid
 * app's install request says 'Coming Soon' (and why) where Install would be.
 */
export function RequestList({ items }: { items: RequestItem[] }) {
  if (items.length === 0) return <p className="empty-state">No data found.</p>;
  return (
    <ul className="request-list" aria-label="Requests">
      {items.map((r) => (
        <li key={r.id} className="card request-row" data-testid="request" data-request-id={r.id}>
          <AppIcon packageName={r.packageName} title={r.title} icon={r.icon} size={48} />
          <div className="stack-tight request-text">
            <strong>{r.title}</strong>
            <span className="badge badge-orange request-type">{r.label}</span>
            {r.remarks ? <p className="muted">“{r.remarks}”</p> : null}
            {r.button.label === "Coming Soon" ? (
              <p className="muted small" id={`paid-${r.id}`}>
                Paid apps cannot be installed yet.
              </p>
            ) : null}
            <time className="muted small" dateTime={r.createdAt}>
              {formatDateTime(r.createdAt)}
            </time>
          </div>
          <div className="request-actions">
            {r.openHref ? (
              <Link to={r.openHref} className="btn btn-primary" preventScrollReset aria-label={`${r.button.label} ${r.title}`}>
                {r.button.label}
              </Link>
            ) : (
              // Spec 2 §4: a paid app cannot be installed yet ('Coming Soon' in Install's place); the parent can still say no.
              <button type="button" className="btn btn-primary" disabled aria-describedby={`paid-${r.id}`} data-testid="coming-soon">
                {r.button.label}
              </button>
            )}
            <AnswerButton id={r.id} intent="reject" label="Reject" title={r.title} className="btn btn-outline" />
          </div>
        </li>
      ))}
    </ul>
  );
}

function AnswerButton({
  id,
  intent,
  label,
  title,
  className,
}: {
  id: string;
  intent: string;
  label: string;
  title: string;
  className: string;
}) {
  const busy = useIsSubmitting({ intent });
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <SubmitButton busy={busy} className={className} aria-label={`${label} ${title}`}>
        {label}
      </SubmitButton>
    </Form>
  );
}
