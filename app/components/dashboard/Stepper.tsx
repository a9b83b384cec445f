import { useEffect, useState } from "react";
import { useHydrated } from "~/utils/hooks";
import { blurMinutes, stepMinutes, typedMinutes } from "~/rules/minutes";
import { MinusIcon, PlusIcon } from "./icons";

/**
 * A minutes stepper. Without JavaScript the − and + buttons submit the form with `step` (the server answers
 * with the new draft value in the URL); with JavaScript they change the value in place, and leaving the field
 * rounds whole minutes up to the next multiple of 15. Never below 0. What is not whole minutes within a day
 * (blank, "-15", "1e5", "100000") stays as typed and is sent as typed: the form's check answers it with its
 * message, never a quiet 0 or 24 hours.
 */
export function MinutesStepper({
  id,
  name,
  label,
  value,
  onChange,
  describedBy,
  stepName = "step",
}: {
  id: string;
  name: string;
  label: string;
  value: number;
  onChange?: (v: number) => void;
  describedBy?: string;
  /** The − and + buttons' name without JavaScript (several steppers in one form each need their own). */
  stepName?: string;
}) {
  const hydrated = useHydrated();
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const set = (v: number) => {
    setText(String(v));
    onChange?.(v);
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="stepper">
        <button
          type="submit"
          name={stepName}
          value="-15"
          aria-label={`Decrease ${label.toLowerCase()} by 15 minutes`}
          aria-controls={id}
          onClick={
            hydrated
              ? (e) => {
                  e.preventDefault();
                  set(stepMinutes(text, -1));
                }
              : undefined
          }
        >
          <MinusIcon />
        </button>
        <input
          id={id}
          name={name}
          type="number"
          inputMode="numeric"
          step={1}
          value={text}
          aria-describedby={describedBy}
          onChange={(e) => {
            setText(e.target.value);
            const n = typedMinutes(e.target.value);
            if (n !== null) onChange?.(n);
          }}
          onBlur={() => {
            const rounded = blurMinutes(text);
            if (rounded !== null) set(rounded);
          }}
        />
        <button
          type="submit"
          name={stepName}
          value="+15"
          aria-label={`Increase ${label.toLowerCase()} by 15 minutes`}
          aria-controls={id}
          onClick={
            hydrated
              ? (e) => {
                  e.preventDefault();
                  set(stepMinutes(text, 1));
                }
              : undefined
          }
        >
          <PlusIcon />
        </button>
      </div>
    </div>
  );
}

/** The first submit button of a form is the one Enter uses: make it the form's main action, not a stepper. */
export function DefaultSubmit({ name, value }: { name: string; value: string }) {
  return <button type="submit" name={name} value={value} className="sr-only" tabIndex={-1} aria-hidden="true" />;
}
