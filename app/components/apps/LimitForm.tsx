import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { Switch } from "~/components/dashboard/Switch";
import { SubmitButton } from "~/components/forms";
import { limitAfterSwitch, type LimitKind } from "~/rules/apps";
import { useIsSubmitting } from "~/utils/hooks";
import { limitSchema } from "./schemas";

export interface LimitDraft {
  enabled: boolean;
  minutes: number;
}

/**
 * The daily-limit control of an app or a category: a switch (on keeps the stored limit or sets 15, off sets 0),
 * a ±15 stepper that rounds up on blur, and Save. Without JavaScript the switch and the stepper post a draft the
 * server keeps in the URL; Save stores it. A refused value shows its message under the field: with JavaScript
 * the browser checks Save with the action's own schema (`limitSchema`) before anything is sent.
 */
export function LimitForm({
  kind,
  draft,
  stored,
  error,
  label,
}: {
  kind: LimitKind;
  draft: LimitDraft;
  stored: number;
  error: string | null;
  label: string;
}) {
  const [state, setState] = useState(draft);
  const [seen, setSeen] = useState({ draft, error });
  if (seen.draft.enabled !== draft.enabled || seen.draft.minutes !== draft.minutes || seen.error !== error) {
    setSeen({ draft, error });
    setState(draft);
  }
  const busy = useIsSubmitting({ intent: "limit" });
  const [form, fields] = useForm({
    id: `${kind}-limit`,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: limitSchema(kind) }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const message = fields.minutes.errors?.[0] ?? error;
  return (
    <Form method="post" {...getFormProps(form)} preventScrollReset className="settings-section" aria-label={label}>
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
          describedBy={message ? "minutes-error" : undefined}
        />
      ) : (
        <input type="hidden" name="minutes" value="0" />
      )}
      {message ? (
        <p className="field-error" id="minutes-error" role="alert">
          {message}
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
