import { Link } from "@remix-run/react";
import { formatDateTime } from "#core/format";
import { Modal } from "~/components/layout";
import { failureExplanation } from "~/rules/store";
import type { InstallRetryView } from "#db/queries/store/installed";

/** The installation-failure-reason popup (spec 2 §8): what happened, what happens next, what the parent can do. */
export function FailureModal({
  appTitle,
  reason,
  retry,
  maxAttempts,
  closeHref,
}: {
  appTitle: string;
  reason: string;
  retry: InstallRetryView | null;
  maxAttempts: number;
  closeHref: string;
}) {
  const e = failureExplanation(reason);
  return (
    <Modal title={e?.title ?? "The install did not finish"} closeHref={closeHref} labelId="failure-title">
      <p className="muted">{appTitle}</p>
      <dl className="facts" data-testid="failure-explanation">
        <dt>What happened</dt>
        <dd>{e?.what ?? "The phone could not install the app."}</dd>
        <dt>What happens next</dt>
        <dd>{e?.next ?? "We do not try again."}</dd>
        <dt>What you can do</dt>
        <dd>{e?.todo ?? "Press Install to try again."}</dd>
      </dl>
      {retry ? <RetryLine retry={retry} maxAttempts={maxAttempts} /> : null}
      <div className="modal-actions">
        <Link to={closeHref} className="btn" replace preventScrollReset>
          OK
        </Link>
      </div>
    </Modal>
  );
}

/** "Attempt 2 of 5 · next try at …" (timed retries), or what the install waits for. */
export function RetryLine({ retry, maxAttempts }: { retry: InstallRetryView; maxAttempts: number }) {
  const waits: Record<string, string> = {
    pending: retry.nextAttemptAt ? `next try ${formatDateTime(retry.nextAttemptAt)}` : "trying again soon",
    waiting_online: "waiting for the phone to be back online",
    waiting_storage: "waiting for free storage on the phone",
    sent: "trying again now",
    gave_up: "no more automatic tries",
    done: "",
  };
  const tail = waits[retry.status] ?? "";
  return (
    <p className="muted" data-testid="retry-line">
      Attempt {Math.min(retry.attempts, maxAttempts)} of {maxAttempts}
      {tail ? ` · ${tail}` : ""}
    </p>
  );
}
