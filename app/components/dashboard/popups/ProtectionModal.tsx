import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { ackColour } from "~/rules/status";
import { useIsSubmitting } from "~/utils/hooks";
import { LockIcon } from "../icons";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=protection: app protection locked or unlocked, and whether the phone has confirmed it. */
export function ProtectionModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "protection" });
  const locked = data.device.protectionEnabled;
  return (
    <Modal title="App protection" closeHref={to({ modal: null })}>
      <p>When locked, {data.profile.name} cannot change the Kids Portal app&apos;s settings or remove it.</p>
      <p className={`ack-line ack-${ackColour(locked, data.ack.protectionAcknowledged)}`}>
        <LockIcon open={!locked} /> Protection is <strong>{locked ? "locked" : "unlocked"}</strong>
        {data.ack.protectionAcknowledged ? " and the phone has confirmed it." : ` — waiting for ${data.profile.name}'s phone to confirm.`}
      </p>
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="protection" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <fieldset className="choice-row">
          <legend>Protection</legend>
          <label className="choice">
            <input type="radio" name="protection" value="locked" defaultChecked={locked} />
            <LockIcon /> Locked
          </label>
          <label className="choice">
            <input type="radio" name="protection" value="unlocked" defaultChecked={!locked} />
            <LockIcon open /> Unlocked
          </label>
        </fieldset>
        <div className="modal-actions">
          <SubmitButton busy={busy} className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}
