/**
 * Minutes and daily limits (spec 1 §5): the 15-minute steps of every time field, the daily-limit switch and
 * check, progress towards a limit, and how minutes are shown.
 */

import { MINUTES_MAX, MULTIPLE_OF_15_MESSAGE, parseMinutesText } from "#core/values";

export { MINUTES_MAX, MULTIPLE_OF_15_MESSAGE } from "#core/values";
export { formatMinutes } from "#core/duration";

export const TIME_STEP = 15;

// ---------------------------------------------------------------- minutes

/** A draft value (URL, stepper) to whole minutes within a day: anything that is not plain digits is 0. */
export function toMinutes(value: unknown): number {
  const r = parseMinutesText(typeof value === "number" ? Math.max(0, Math.min(MINUTES_MAX, Math.floor(value))) : value);
  return r.ok ? (r.minutes ?? 0) : 0;
}

/** On blur: rounds up to the next multiple of 15 (never below 0, never past a day). */
export function roundUpToStep(value: unknown, step = TIME_STEP): number {
  const n = typeof value === "number" ? value : Number.parseFloat(String(value ?? "").trim());
  if (!Number.isFinite(n) || n <= 0) return 0;
  return Math.min(MINUTES_MAX, Math.ceil(n / step) * step);
}

/** What the stepper reports while the parent types: whole minutes within a day, else null (left as typed). */
export function typedMinutes(value: unknown): number | null {
  const r = parseMinutesText(value);
  return r.ok && r.minutes !== null ? r.minutes : null;
}

/**
 * On blur, for the stepper: whole minutes within a day round up to the next multiple of 15; anything else (blank,
 * negative, "1e5", more than a day) is left as typed (null), for the form's check to answer with its message.
 */
export function blurMinutes(value: unknown, step = TIME_STEP): number | null {
  const n = typedMinutes(value);
  return n === null ? null : roundUpToStep(n, step);
}

/** The stepper's +/- buttons: add or subtract 15, never below 0 nor past a day. */
export function stepMinutes(value: unknown, direction: 1 | -1, step = TIME_STEP): number {
  return Math.min(MINUTES_MAX, Math.max(0, toMinutes(value) + direction * step));
}

export function isMultipleOfStep(value: number, step = TIME_STEP): boolean {
  return Number.isInteger(value) && value >= 0 && value % step === 0;
}

/** The daily-limit switch: off sets 0 minutes, on sets 15. */
export function limitAfterToggle(on: boolean): number {
  return on ? TIME_STEP : 0;
}

/**
 * Saving the global daily limit (core/values.ts rules): blank is 0 (no limit); anything but whole minutes
 * from 0 to 1,440 is refused; a non-multiple of 15 is refused with the spec's message. A refused value
 * resets the field to 0.
 */
export function checkDailyLimit(raw: unknown): { ok: true; minutes: number } | { ok: false; minutes: 0; message: string } {
  const parsed = parseMinutesText(raw);
  if (!parsed.ok) return { ok: false, minutes: 0, message: parsed.message };
  const n = parsed.minutes ?? 0;
  if (!isMultipleOfStep(n)) return { ok: false, minutes: 0, message: MULTIPLE_OF_15_MESSAGE };
  return { ok: true, minutes: n };
}

/** Progress towards a limit in percent (0–100); red at or over the limit. No limit (0) means no bar colour. */
export function limitProgress(usedMinutes: number, limitMinutes: number): { percent: number; over: boolean } {
  if (!(limitMinutes > 0)) return { percent: 0, over: false };
  const used = Math.max(0, usedMinutes);
  return { percent: Math.min(100, Math.round((used / limitMinutes) * 100)), over: used >= limitMinutes };
}
