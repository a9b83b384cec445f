import { z } from "zod";

/** Calendar days as the pages carry them in the URL: YYYY-MM-DD, UTC (the day step is 24 hours, spec 2 §9). */
export const DAY_MS = 86_400_000;
export const INVALID_DAY = "Please choose a valid day.";

export function isCalendarDay(d: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(d) &&
    !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
    new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d
  );
}

export const calendarDay = z.string().refine(isCalendarDay, INVALID_DAY);

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** The day `n` days after `day` (negative: before). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** The day in a query parameter, or today when it is missing or not a real day. */
export function dayParam(value: string | null | undefined, now: Date = new Date()): string {
  return value && isCalendarDay(value) ? value : todayUtc(now);
}

/** [start, end) of the day as ISO timestamps, for created_at ranges. */
export function dayRange(day: string): { from: string; to: string } {
  return { from: `${day}T00:00:00.000Z`, to: `${addDays(day, 1)}T00:00:00.000Z` };
}
