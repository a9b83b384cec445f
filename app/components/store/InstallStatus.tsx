import { Link } from "@remix-run/react";
import type { InstallRetryView } from "#db/queries/store/installed";
import { failureExplanation } from "~/rules/store";
import { RetryLine } from "./FailureModal";

/** An app's store install on the kid's phone (the /application page): installing, or not installed and why. */
export function InstallStatus({
  state,
  reason,
  retry,
  maxAttempts,
  whyHref,
}: {
  state: string | null;
  reason: string | null;
  retry: InstallRetryView | null;
  maxAttempts: number;
  whyHref: string;
}) {
  if (state === "installing" || reason === "IN_PROGRESS") {
    return (
      <section className="card" aria-label="Install">
        <p className="badge badge-orange" data-testid="install-status" data-state="installing">
          Installing on the phone…
        </p>
        {retry ? <RetryLine retry={retry} maxAttempts={maxAttempts} /> : null}
      </section>
    );
  }
  if (state !== "failed" || !reason) return null;
  return (
    <section className="card" aria-label="Install">
      <p data-testid="install-status" data-state="failed">
        <span className="badge badge-red">Not installed</span> {failureExplanation(reason)?.title ?? "The install did not finish"}.{" "}
        <Link to={whyHref} preventScrollReset>
          Why?
        </Link>
      </p>
      {retry ? <RetryLine retry={retry} maxAttempts={maxAttempts} /> : null}
    </section>
  );
}
