import { Form } from "@remix-run/react";
import { ChangedBy } from "~/components/ChangedBy";
import { Modal } from "~/components/layout";
import { ackColour } from "~/rules/status";
import { useIsSubmitting } from "~/utils/hooks";
import { MoonIcon } from "../icons";
import type { DashData } from "../types";
import { useHrefWith } from "../url";
import { Switch } from "../Switch";

/** ?modal=sleep: sleep mode on or off, and whether the phone has confirmed it. */
export function SleepModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "sleep" });
  const on = data.profile.sleepMode;
  return (
    <Modal title="Sleep mode" closeHref={to({ modal: null })}>
      <p>Sleep mode stops {data.profile.name}&apos;s access to the phone until you turn it off.</p>
      <p className={`ack-line ack-${ackColour(on, data.ack.sleepModeAcknowledged)}`}>
        <MoonIcon /> Sleep mode is <strong>{on ? "on" : "off"}</strong>
        {data.ack.sleepModeAcknowledged ? " and the phone has confirmed it." : ` — waiting for ${data.profile.name}'s phone to confirm.`}
      </p>
      <ChangedBy by={data.sleepModeBy} testId="sleep-changed-by" />
      <Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="sleep" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <input type="hidden" name="sleepMode" value={on ? "off" : "on"} />
        <Switch big checked={on} label={on ? "Turn sleep mode off" : "Turn sleep mode on"} disabled={busy} />
      </Form>
    </Modal>
  );
}
