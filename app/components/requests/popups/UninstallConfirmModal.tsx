import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { useIsSubmitting } from "~/utils/hooks";

/**
 * UnInstall asks first (`?confirm=uninstall&id=…`, works without JavaScript): what goes from which phone; Cancel goes
 * back, the button approves the request and the phone removes the app.
 */
export function UninstallConfirmModal({
  request,
  kidName,
  closeHref,
}: {
  request: { id: string; title: string; remarks: string | null };
  kidName: string;
  closeHref: string;
}) {
  const busy = useIsSubmitting({ intent: "uninstall" });
  return (
    <Modal title={`Uninstall ${request.title}?`} closeHref={closeHref}>
      <p>
        <strong>
          Remove {request.title} from {kidName.endsWith("s") ? `${kidName}'` : `${kidName}'s`} phone?
        </strong>
      </p>
      {request.remarks ? (
        <p>
          {kidName} wrote: “{request.remarks}”
        </p>
      ) : null}
      <p>The app and its data are removed from the phone; you can install it again from the store later.</p>
      <div className="modal-actions">
        <Link to={closeHref} className="btn btn-outline" replace preventScrollReset>
          Cancel
        </Link>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="uninstall" />
          <input type="hidden" name="id" value={request.id} />
          <input type="hidden" name="confirmed" value="yes" />
          <SubmitButton busy={busy} className="btn btn-danger">
            Yes, uninstall
          </SubmitButton>
        </Form>
      </div>
    </Modal>
  );
}
