/** The parent's kids report frequency (global settings). */

export const REPORT_TYPES = ["Off", "Weekly", "Monthly"] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
export const DEFAULT_REPORT_TYPE: ReportType = "Weekly";

/** The month filter on /reports (spec 2 §9): January to December. */
export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

/** The year filter: the current year and the four before it. */
export function reportYears(now: Date = new Date()): number[] {
  const y = now.getUTCFullYear();
  return [y, y - 1, y - 2, y - 3, y - 4];
}

/** month (1–12) and year from the URL; anything not offered reads as the current month and year. */
export function reportFilter(params: URLSearchParams, now: Date = new Date()): { month: number; year: number } {
  const whole = (v: string | null) => (v && /^\d{1,4}$/.test(v) ? Number(v) : NaN);
  const month = whole(params.get("month"));
  const year = whole(params.get("year"));
  const ok = month >= 1 && month <= 12 && reportYears(now).includes(year);
  return ok ? { month, year } : { month: now.getUTCMonth() + 1, year: now.getUTCFullYear() };
}
