/**
 * App and category limits (spec 2 §4, §5): the daily-limit switch, the stepper, rounding on blur, what is
 * accepted when saved, and when enabling is refused. Pure functions; the device service and the pages share them.
 */
import { MINUTES_MAX, MULTIPLE_OF_15_MESSAGE, parseMinutesText } from "#core/values";
import { blurMinutes, stepMinutes, TIME_STEP } from "./minutes";

export { ENABLE_REFUSED, INSTALL_FIRST, KIDS_APP_LOCKED, enableRefusal } from "#core/limits";

export const ENTER_TIME_MESSAGE = "Please enter time.";
export const POSITIVE_TIME_MESSAGE = "Please enter time in positive.";

export type LimitKind = "app" | "category";

/** The switch: on keeps a stored limit (15 when there is none), off sets 0. */
export function limitAfterSwitch(on: boolean, stored: number | null | undefined): number {
  if (!on) return 0;
  const s = Math.floor(Number(stored ?? 0));
  return Number.isFinite(s) && s > 0 ? Math.min(MINUTES_MAX, s) : TIME_STEP;
}

/** The − and + buttons: ±15, never below 0 nor past a day. */
export function limitStep(value: unknown, direction: 1 | -1): number {
  return stepMinutes(value, direction);
}

/**
 * Leaving the field: whole minutes within a day round up to the next multiple of 15; anything else (blank, a
 * negative number, "1e5", more than a day) is left as typed, so Save answers it with its message instead of
 * quietly saving 0 ("no limit") or 24 hours.
 */
export function limitOnBlur(value: unknown): number | null {
  return blurMinutes(value);
}

export type LimitCheck = { ok: true; minutes: number } | { ok: false; message: string };

/**
 * Saving a limit, the one rule of the browser's check and the action's (`limitSchema`). Off: 0 whatever was
 * typed. On: blank → 'Please enter time.'; a negative number → 'Please enter time in positive.' (the category's
 * words, and an app's too: a typed "-15" never quietly becomes "no limit"); not whole minutes in a day ("1e5",
 * "100000") → the shared minutes message; not a multiple of 15 → 'Please enter time multiple of 15.'.
 */
export function checkLimit(_kind: LimitKind, enabled: boolean, raw: unknown): LimitCheck {
  if (!enabled) return { ok: true, minutes: 0 };
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (text === "") return { ok: false, message: ENTER_TIME_MESSAGE };
  if (/^-\s*\d/.test(text) && !/^-\s*0*$/.test(text)) return { ok: false, message: POSITIVE_TIME_MESSAGE };
  const parsed = parseMinutesText(text);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const n = parsed.minutes ?? 0;
  if (n % TIME_STEP !== 0) return { ok: false, message: MULTIPLE_OF_15_MESSAGE };
  return { ok: true, minutes: n };
}
