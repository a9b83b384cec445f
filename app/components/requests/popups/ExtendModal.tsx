import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { formatMinutes } from "~/rules/minutes";
import { useIsSubmitting } from "~/utils/hooks";

export interface ExtendView {
  id: string;
  title: string;
  current: number | null;
  extra: number;
  total: number | null;
}

/**
 * The extend popup (spec 2 §2, §4): the current limit, the extra minutes and the new total, and Approve. An app with
 * no limit says what the extra minutes mean (`note`). When the app or its category stops it anyway (turned off, or
 * the category's limit used up), the popup shows the category-disabled warning with a link to where that changes
 * (/category with appRequestPage=true, or the app's page) as it opens, and again instead of a toast when the
 * approval answers redirectToCategory.
 */
export function ExtendModal({
  view,
  note,
  warning,
  closeHref,
}: {
  view: ExtendView;
  note: string | null;
  warning: { text: string; link: string; href: string } | null;
  closeHref: string;
}) {
  const busy = useIsSubmitting({ intent: "extend" });
  const show = (m: number | null) => (m === null ? "No limit" : formatMinutes(m));
  return (
    <Modal title={`Extend ${view.title}`} closeHref={closeHref}>
      <dl className="extend-totals">
        <dt>Current limit</dt>
        <dd data-testid="extend-current">{show(view.current)}</dd>
        <dt>Extra minutes</dt>
        <dd data-testid="extend-extra">{formatMinutes(view.extra)}</dd>
        <dt>New total today</dt>
        <dd data-testid="extend-total">{show(view.total)}</dd>
      </dl>
      {note ? (
        <p className="small" data-testid="extend-no-limit">
          {note}
        </p>
      ) : (
        <p className="muted small">The extra time is for today only; the daily limit stays as it is.</p>
      )}
      {warning ? (
        <div className="alert alert-warning" role="alert" data-testid="category-warning">
          <p>{warning.text}</p>
          <Link to={warning.href}>{warning.link}</Link>
        </div>
      ) : null}
      <div className="modal-actions">
        <Link to={closeHref} className="btn btn-outline" replace preventScrollReset>
          Cancel
        </Link>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="extend" />
          <input type="hidden" name="id" value={view.id} />
          <input type="hidden" name="extendLimit" value={view.extra} />
          <SubmitButton busy={busy} className="btn btn-primary">
            Approve
          </SubmitButton>
        </Form>
      </div>
    </Modal>
  );
}
