import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { WEEKDAYS } from "#core/zoned-time";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { useHrefWith } from "~/components/dashboard/url";
import { SubmitButton } from "~/components/forms";
import { formatMinutes } from "~/rules/minutes";
import { useIsSubmitting } from "~/utils/hooks";

/**
 * "Customise by day": closed, a link opens it (?byDay=1); open, a stepper per weekday (Monday … Sunday) with the
 * daily limit's 15-minute rules, Save, and "Same every day" once a rule is saved. 0 is no limit that day.
 */
export function WeekdayLimits({
  draft,
  error,
  what,
}: {
  draft: { open: boolean; customised: boolean; minutes: number[] };
  error: { message: string; day: number } | null;
  what: string;
}) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "weekdays" });
  const [minutes, setMinutes] = useState(draft.minutes);
  const [seen, setSeen] = useState(draft.minutes);
  if (seen.join() !== draft.minutes.join()) {
    setSeen(draft.minutes);
    setMinutes(draft.minutes);
  }
  if (!draft.open) {
    return (
      <p id="by-day">
        <Link to={`${to({ byDay: "1" })}#by-day`} preventScrollReset replace>
          Customise by day
        </Link>
      </p>
    );
  }
  return (
    <Form method="post" preventScrollReset className="settings-section" id="by-day" noValidate aria-label={`${what} by day`}>
      <DefaultSubmit name="intent" value="weekdays" />
      <input type="hidden" name="intent" value="weekdays" />
      <h3>Customise by day</h3>
      <p className="muted small">
        {draft.customised ? "Each day has its own limit." : "One value holds every day until you save limits by day."} 0 is no limit that
        day.
      </p>
      <div className="weekday-grid">
        {WEEKDAYS.map((day, i) => (
          <MinutesStepper
            key={day}
            id={`day${i}`}
            name={`day${i}`}
            stepName={`step-day${i}`}
            label={day}
            value={minutes[i] ?? 0}
            onChange={(v) => setMinutes((m) => m.map((x, j) => (j === i ? v : x)))}
            describedBy={error?.day === i ? "weekdays-error" : undefined}
          />
        ))}
      </div>
      {error ? (
        <p className="field-error" id="weekdays-error" role="alert">
          {error.message}
        </p>
      ) : null}
      <div className="radio-row">
        <SubmitButton busy={busy} className="btn">
          Save limits by day
        </SubmitButton>
        {draft.customised ? (
          <button type="submit" name="do" value="reset" className="btn btn-outline">
            Same every day
          </button>
        ) : (
          <Link to={to({ byDay: null, days: null })} preventScrollReset replace className="btn btn-outline">
            Cancel
          </Link>
        )}
      </div>
    </Form>
  );
}

/** "Bonus time": extra minutes for today only, in 15-minute steps; shows what was given today. */
export function BonusTime({
  draft,
  givenToday,
  error,
  what,
  hidden = {},
}: {
  draft: number;
  givenToday: number;
  error: string | null;
  what: string;
  hidden?: Record<string, string>;
}) {
  const busy = useIsSubmitting({ intent: "bonus" });
  const [minutes, setMinutes] = useState(draft);
  const [seen, setSeen] = useState(draft);
  if (seen !== draft) {
    setSeen(draft);
    setMinutes(draft);
  }
  return (
    <Form method="post" preventScrollReset className="settings-section" id="bonus" noValidate aria-labelledby="bonus-title">
      <DefaultSubmit name="intent" value="bonus" />
      <input type="hidden" name="intent" value="bonus" />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <h3 id="bonus-title">Bonus time</h3>
      <p className="muted small" data-testid="bonus-today">
        Extra minutes for {what}, today only; they end at midnight.{" "}
        {givenToday > 0 ? `Given today: ${formatMinutes(givenToday)}.` : "None given today."}
      </p>
      <MinutesStepper
        id="bonus-minutes"
        name="bonus"
        stepName="step-bonus"
        label="Bonus minutes"
        value={minutes}
        onChange={setMinutes}
        describedBy={error ? "bonus-error" : undefined}
      />
      {error ? (
        <p className="field-error" id="bonus-error" role="alert">
          {error}
        </p>
      ) : null}
      <div>
        <SubmitButton busy={busy} className="btn">
          Give bonus time
        </SubmitButton>
      </div>
    </Form>
  );
}

/**
 * "Session limit" (issue 21 item 4) for an app or a category: at most N minutes in a row, then a break of M
 * minutes. Shows the saved rule; two steppers (15-minute steps), Save, and Remove once one is saved.
 */
export function SessionLimit({
  draft,
  error,
  what,
}: {
  draft: { saved: { minutes: number; breakMinutes: number } | null; minutes: number; breakMinutes: number };
  error: { message: string; field: "minutes" | "break" } | null;
  what: string;
}) {
  const busy = useIsSubmitting({ intent: "session" });
  const shown = `${draft.minutes},${draft.breakMinutes}`;
  const [values, setValues] = useState({ minutes: draft.minutes, breakMinutes: draft.breakMinutes });
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setValues({ minutes: draft.minutes, breakMinutes: draft.breakMinutes });
  }
  const s = draft.saved;
  return (
    <Form method="post" preventScrollReset className="settings-section" id="session" noValidate aria-label={`Session limit for ${what}`}>
      <DefaultSubmit name="intent" value="session" />
      <input type="hidden" name="intent" value="session" />
      <h3>Session limit</h3>
      <p className="muted small" data-testid="session-state">
        {s
          ? `On: at most ${formatMinutes(s.minutes)} in a row, then a ${formatMinutes(s.breakMinutes)} break.`
          : "Off: no limit on minutes in a row."}
      </p>
      <div className="weekday-grid">
        <MinutesStepper
          id="session-minutes"
          name="sessionMinutes"
          stepName="step-session"
          label="Minutes in a row"
          value={values.minutes}
          onChange={(v) => setValues((x) => ({ ...x, minutes: v }))}
          describedBy={error?.field === "minutes" ? "session-error" : undefined}
        />
        <MinutesStepper
          id="session-break"
          name="breakMinutes"
          stepName="step-break"
          label="Break minutes"
          value={values.breakMinutes}
          onChange={(v) => setValues((x) => ({ ...x, breakMinutes: v }))}
          describedBy={error?.field === "break" ? "session-error" : undefined}
        />
      </div>
      {error ? (
        <p className="field-error" id="session-error" role="alert">
          {error.message}
        </p>
      ) : null}
      <div className="radio-row">
        <SubmitButton busy={busy} className="btn">
          Save session limit
        </SubmitButton>
        {s ? (
          <button type="submit" name="do" value="off" className="btn btn-outline" disabled={busy}>
            Remove session limit
          </button>
        ) : null}
      </div>
    </Form>
  );
}
