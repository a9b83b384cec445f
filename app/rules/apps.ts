/**
 * App and category limits (spec 2 §4, §5): the daily-limit switch, the stepper, rounding on blur, what is
 * accepted when saved, and when enabling is refused. Pure functions; the device service and the pages share them.
 */
import { MINUTES_MAX, MULTIPLE_OF_15_MESSAGE, parseMinutesText } from "#core/values";
import { roundUpToStep, stepMinutes, TIME_STEP } from "./minutes";

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

/** Leaving the field: up to the next multiple of 15; negative values become 0. */
export function limitOnBlur(value: unknown): number {
  return roundUpToStep(value);
}

export type LimitCheck = { ok: true; minutes: number } | { ok: false; message: string };

/**
 * Saving a limit. Off: 0 whatever was typed. On: blank → 'Please enter time.'; negative → 0 for an app,
 * 'Please enter time in positive.' for a category; not whole minutes in a day → the shared minutes message;
 * not a multiple of 15 → 'Please enter time multiple of 15.'.
 */
export function checkLimit(kind: LimitKind, enabled: boolean, raw: unknown): LimitCheck {
  if (!enabled) return { ok: true, minutes: 0 };
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw.trim() : "";
  if (text === "") return { ok: false, message: ENTER_TIME_MESSAGE };
  if (/^-\d{1,5}$/.test(text) && Number(text) < 0) {
    return kind === "category" ? { ok: false, message: POSITIVE_TIME_MESSAGE } : { ok: true, minutes: 0 };
  }
  const parsed = parseMinutesText(text);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  const n = parsed.minutes ?? 0;
  if (n % TIME_STEP !== 0) return { ok: false, message: MULTIPLE_OF_15_MESSAGE };
  return { ok: true, minutes: n };
}
