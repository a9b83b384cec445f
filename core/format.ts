/**
 * Dates as the spec asks (en-US), in UTC like the usage buckets. Formatters are built once: creating an
 * Intl.DateTimeFormat per call (what toLocaleString does) cost ~0.7 ms per dashboard render.
 */
const dateTime = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});
const dayLabel = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const mediumDateTime = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "Nov 21, 2026, 11:31 PM UTC", or "—" when there is no time. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}

/** "Sat, Nov 21, 2026" */
export function formatDayLabel(date: Date): string {
  return dayLabel.format(date);
}

const monthDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const monthDayYear = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const weekdayMonthDay = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

/** "Nov 16 – Nov 22", or "Dec 28, 2026 – Jan 3, 2027" across a new year. */
export function formatDayRange(first: Date, last: Date): string {
  const f = first.getUTCFullYear() === last.getUTCFullYear() ? monthDay : monthDayYear;
  return `${f.format(first)} – ${f.format(last)}`;
}

/** "Tue, Nov 17" */
export function formatWeekdayDay(date: Date): string {
  return weekdayMonthDay.format(date);
}

/** "Nov 21, 2026, 11:31 PM UTC" (medium style) */
export function formatMediumDateTime(iso: string): string {
  return `${mediumDateTime.format(new Date(iso))} UTC`;
}
