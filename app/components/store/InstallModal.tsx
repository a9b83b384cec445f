import { Form } from "@remix-run/react";
import { useState } from "react";
import { Modal } from "~/components/layout";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { Switch } from "~/components/dashboard/Switch";
import { limitAfterSwitch } from "~/rules/apps";
import { useIsSubmitting } from "~/utils/hooks";

export interface InstallDraft {
  enabled: boolean;
  minutes: number;
}

/** Spec 2 §4, §9: the install popup opens with the daily limit on at 60 minutes. */
export const INSTALL_DRAFT_DEFAULT: InstallDraft = { enabled: true, minutes: 60 };

/**
 * The daily-limit popup shown before an install (the store, and the requests' Install, issue 14). Save and
 * Install sends the limit and is disabled unless it is above 0; Skip & Install installs with no limit. Without
 * JavaScript the switch and the stepper post a draft (`intent` with `toggle` / `step`) the server keeps in the
 * URL (install.server.ts `installIntent`). `hidden` carries the form's own fields (packageName, requestId, …).
 */
export function InstallModal({
  appTitle,
  closeHref,
  draft,
  hidden,
  error,
}: {
  appTitle: string;
  closeHref: string;
  draft: InstallDraft;
  hidden: Record<string, string>;
  error?: string | null;
}) {
  const [state, setState] = useState(draft);
  const [seen, setSeen] = useState(draft);
  if (seen.enabled !== draft.enabled || seen.minutes !== draft.minutes) {
    setSeen(draft);
    setState(draft);
  }
  const busy = useIsSubmitting({ intent: hidden.intent ?? "install" });
  const canSave = state.enabled && state.minutes > 0;
  return (
    <Modal title={`Install ${appTitle}`} closeHref={closeHref} labelId="install-title">
      <Form method="post" preventScrollReset noValidate aria-label="Install with a daily limit" replace>
        {canSave ? <DefaultSubmit name="do" value="save" /> : <DefaultSubmit name="do" value="skip-enter" />}
        {Object.entries(hidden).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <input type="hidden" name="enableDailyLimit" value={state.enabled ? "on" : "off"} />
        <p>Set how long a day the app may be used. You can change it later on the app&apos;s page.</p>
        <Switch
          checked={state.enabled}
          label="Daily limit"
          onToggle={(on) => setState({ enabled: on, minutes: limitAfterSwitch(on, on ? 0 : state.minutes) })}
        />
        {state.enabled ? (
          <MinutesStepper
            id="install-minutes"
            name="minutes"
            label="Minutes a day"
            value={state.minutes}
            onChange={(m) => setState({ enabled: true, minutes: m })}
            describedBy={error ? "install-error" : undefined}
          />
        ) : (
          <input type="hidden" name="minutes" value="0" />
        )}
        {error ? (
          <p className="field-error" id="install-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="submit" name="do" value="skip" className="btn btn-outline" disabled={busy}>
            Skip &amp; Install
          </button>
          <button type="submit" name="do" value="save" className="btn" disabled={busy || !canSave} aria-disabled={busy || !canSave}>
            Save and Install
          </button>
        </div>
      </Form>
    </Modal>
  );
}
