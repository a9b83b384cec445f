import { Form } from "@remix-run/react";
import { useState } from "react";
import { SubmitButton } from "~/components/forms";
import { useBrowserTimeZone } from "~/components/time-zone/BrowserTimeZone";
import { useIsSubmitting } from "~/utils/hooks";

/**
 * The family's time zone on /parent-profile (issue 21 item 6): days, limits by weekday, schedules and reports run in
 * it. Without JavaScript the parent chooses from the list. With it, the browser's zone is offered: chosen already
 * while the family still has the default (UTC), else one "Use" button away. Save stores it and re-sends the policy.
 */
export function TimeZoneCard({ saved, zones, error }: { saved: string; zones: string[]; error: string | null }) {
  const busy = useIsSubmitting({ intent: "time-zone" });
  const browser = useBrowserTimeZone();
  const [chosen, setChosen] = useState<string | null>(null);
  const value = chosen ?? (saved === "UTC" && browser ? browser : saved);
  const options = [...new Set([saved, ...(browser ? [browser] : []), ...zones])];
  return (
    <section className="card stack" aria-labelledby="time-zone-title" id="time-zone">
      <h2 id="time-zone-title">Time zone</h2>
      <Form method="post" className="stack" preventScrollReset noValidate>
        <input type="hidden" name="intent" value="time-zone" />
        <div className="field">
          <label htmlFor="time-zone-select">Family time zone</label>
          <select
            id="time-zone-select"
            name="timeZone"
            value={value}
            onChange={(e) => setChosen(e.target.value)}
            aria-describedby={error ? "time-zone-error time-zone-help" : "time-zone-help"}
            aria-invalid={error ? true : undefined}
          >
            {options.map((z) => (
              <option key={z} value={z}>
                {z.replace(/_/g, " ")}
              </option>
            ))}
          </select>
          {error ? (
            <p className="field-error" id="time-zone-error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <p className="muted small" id="time-zone-help" data-testid="time-zone-state">
          Saved: {saved.replace(/_/g, " ")}. Your kids&apos; days, limits by day, schedules and reports follow this time zone.
          {browser && browser !== saved
            ? ` This browser is in ${browser.replace(/_/g, " ")}${value === browser ? " (chosen above: press Save)" : ""}.`
            : ""}
        </p>
        <div className="radio-row">
          <SubmitButton busy={busy} className="btn">
            Save time zone
          </SubmitButton>
          {browser && browser !== value ? (
            <button type="button" className="btn btn-outline" onClick={() => setChosen(browser)}>
              Use this browser&apos;s time zone
            </button>
          ) : null}
        </div>
      </Form>
    </section>
  );
}
