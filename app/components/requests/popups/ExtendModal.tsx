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
 * The extend popup (spec 2 §2, §4): the current limit, the extra minutes and the new total, and Approve. When the
 * app's category stops it anyway (disabled, or its limit used up), the approval answers redirectToCategory and the
 * popup shows the category-disabled warning with a link to /category (appRequestPage=true) instead of a toast.
 */
export function ExtendModal({
  view,
  warning,
  closeHref,
}: {
  view: ExtendView;
  warning: { categoryHref: string; categoryName: string } | null;
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
      <p className="muted small">The extra time is for today only; the daily limit stays as it is.</p>
      {warning ? (
        <div className="alert alert-warning" role="alert" data-testid="category-warning">
          <p>
            The {warning.categoryName} category is disabled or has used up its daily limit today, so extra time would not let this app run.
          </p>
          <Link to={warning.categoryHref}>Change the {warning.categoryName} category</Link>
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
