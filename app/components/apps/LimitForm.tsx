import { Form } from "@remix-run/react";
import { useState } from "react";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { Switch } from "~/components/dashboard/Switch";
import { SubmitButton } from "~/components/forms";
import { limitAfterSwitch } from "~/rules/apps";
import { useIsSubmitting } from "~/utils/hooks";

export interface LimitDraft {
  enabled: boolean;
  minutes: number;
}

/**
 * The daily-limit control of an app or a category: a switch (on keeps the stored limit or sets 15, off sets 0),
 * a ±15 stepper that rounds up on blur, and Save. Without JavaScript the switch and the stepper post a draft the
 * server keeps in the URL; Save stores it. A refused value shows its message under the field.
 */
export function LimitForm({ draft, stored, error, label }: { draft: LimitDraft; stored: number; error: string | null; label: string }) {
  const [state, setState] = useState(draft);
  const [seen, setSeen] = useState({ draft, error });
  if (seen.draft.enabled !== draft.enabled || seen.draft.minutes !== draft.minutes || seen.error !== error) {
    setSeen({ draft, error });
    setState(draft);
  }
  const busy = useIsSubmitting({ intent: "limit" });
  return (
    <Form method="post" preventScrollReset className="settings-section" noValidate aria-label={label}>
      <DefaultSubmit name="intent" value="limit" />
      <input type="hidden" name="intent" value="limit" />
      <input type="hidden" name="enableDailyLimit" value={state.enabled ? "on" : "off"} />
      <Switch
        checked={state.enabled}
        label="Daily limit"
        onToggle={(on) => setState({ enabled: on, minutes: limitAfterSwitch(on, stored) })}
      />
      {state.enabled ? (
        <MinutesStepper
          id="minutes"
          name="minutes"
          label="Minutes a day"
          value={state.minutes}
          onChange={(m) => setState({ enabled: true, minutes: m })}
          describedBy={error ? "minutes-error" : undefined}
        />
      ) : (
        <input type="hidden" name="minutes" value="0" />
      )}
      {error ? (
        <p className="field-error" id="minutes-error" role="alert">
          {error}
        </p>
      ) : null}
      <div>
        <SubmitButton busy={busy} className="btn">
          Save
        </SubmitButton>
      </div>
    </Form>
  );
}

/** Orange: sent to the phone; green: the phone confirmed it (spec 2 §4). */
export function DeliveryBadge({ state, kidName }: { state: "sent" | "acknowledged"; kidName: string }) {
  return state === "acknowledged" ? (
    <span className="badge badge-green" data-testid="delivery" data-state="acknowledged">
      Confirmed by {kidName}&apos;s phone
    </span>
  ) : (
    <span className="badge badge-orange" data-testid="delivery" data-state="sent">
      Sent to {kidName}&apos;s phone
    </span>
  );
}

/** The enable switch: a one-button form posting the state to go to. */
export function EnabledSwitch({ enabled, label }: { enabled: boolean; label: string }) {
  const busy = useIsSubmitting({ intent: "enabled" });
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="enabled" />
      <input type="hidden" name="enabled" value={enabled ? "off" : "on"} />
      <Switch checked={enabled} label={label} disabled={busy} />
    </Form>
  );
}
