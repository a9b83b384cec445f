import { Form, Link } from "@remix-run/react";
import { Modal } from "~/components/layout";
import { useIsSubmitting } from "~/utils/hooks";
import { AddKidForm } from "../AddKidForm";
import { useHrefWith } from "../url";

/** ?modal=add-kid (from the switcher): another kid's details; the next step is the new kid's phone. */
export function AddKidModal({ lastResult, currentYear }: { lastResult: unknown; currentYear: number }) {
  const to = useHrefWith();
  return (
    <Modal title="Add a kid" closeHref={to({ modal: null })} labelId="add-kid-modal-title">
      <p>Add your kid&apos;s details. Next you show a code to scan on their phone.</p>
      <AddKidForm lastResult={lastResult} currentYear={currentYear} heading={false} labelledBy="add-kid-modal-title" />
    </Modal>
  );
}

/** ?modal=replace-phone: what replacing the phone does, before it is done. */
export function ReplacePhoneModal({ kid, serialNumber }: { kid: { id: string; name: string }; serialNumber: string }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "replace-phone" });
  return (
    <Modal title={`Replace ${kid.name}'s phone`} closeHref={to({ modal: null })}>
      <p>
        {kid.name}&apos;s phone ({serialNumber}) will be removed from your account: it stops receiving your settings and commands, and
        anything still waiting for it is cancelled. {kid.name}&apos;s history (screen time, locations, notifications) stays.
      </p>
      <p>Next you show a code to scan on the new phone.</p>
      <div className="modal-actions">
        <Link to={to({ modal: null })} className="btn btn-outline" replace preventScrollReset>
          Cancel
        </Link>
        <Form method="post">
          <input type="hidden" name="intent" value="replace-phone" />
          <input type="hidden" name="profileId" value={kid.id} />
          <button type="submit" className="btn btn-danger" disabled={busy}>
            Remove old phone
          </button>
        </Form>
      </div>
    </Modal>
  );
}

/** ?modal=remove-kid: says what is deleted, then deletes it (the kid's own parent only). */
export function RemoveKidModal({ kid, serialNumber }: { kid: { id: string; name: string }; serialNumber: string | null }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "remove-kid" });
  return (
    <Modal title={`Remove ${kid.name}`} closeHref={to({ modal: null })}>
      <p>
        This deletes {kid.name}&apos;s profile and everything recorded for {kid.name}: screen time, apps and limits, locations,
        notifications and requests.{" "}
        {serialNumber ? `${kid.name}'s phone (${serialNumber}) is removed from your account and no longer managed. ` : null}This cannot be
        undone.
      </p>
      <div className="modal-actions">
        <Link to={to({ modal: null })} className="btn btn-outline" replace preventScrollReset>
          Cancel
        </Link>
        <Form method="post">
          <input type="hidden" name="intent" value="remove-kid" />
          <input type="hidden" name="profileId" value={kid.id} />
          <button type="submit" className="btn btn-danger" disabled={busy}>
            Remove {kid.name}
          </button>
        </Form>
      </div>
    </Modal>
  );
}
