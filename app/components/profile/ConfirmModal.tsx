import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { useIsSubmitting } from "~/utils/hooks";
import type { ProfileData } from "./ProfileView";

/** The confirm modal (?confirm=revoke|reject&id=…); closing it drops both parameters. */
export function ConfirmModal({ kind, row }: { kind: "revoke" | "reject"; row: ProfileData["given"][number] }) {
  const busy = useIsSubmitting({ intent: kind });
  const kids = row.kids.map((k) => k.name).join(", ");
  return (
    <Modal title={kind === "revoke" ? "Revoke access" : "Reject invitation"} closeHref="/parent-profile">
      <p>
        {kind === "revoke"
          ? row.status === "Accepted"
            ? `${row.delegateName} (${row.delegateEmail}) will no longer see or manage ${kids}, starting now.`
            : `The invitation to ${row.delegateEmail} for ${kids} will be withdrawn.`
          : `${row.ownerName} (${row.ownerEmail}) invited you to manage ${kids}. Reject the invitation?`}
      </p>
      <Form method="post" action="/parent-profile" className="modal-actions">
        <input type="hidden" name="intent" value={kind} />
        <input type="hidden" name="id" value={row.id} />
        <SubmitButton busy={busy} className="btn btn-danger">
          {kind === "revoke" ? "Revoke" : "Reject"}
        </SubmitButton>
      </Form>
    </Modal>
  );
}
