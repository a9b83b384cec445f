/**
 * Report periods (issue 16): a week runs Monday to Sunday and a month from its first to its last day, in the
 * family's time zone (parents.time_zone, an IANA name, UTC until set). Dates are local YYYY-MM-DD strings,
 * `end` exclusive; instants are ISO-8601 UTC. Pure: shared by the jobs, the back-fill and the pages.
 */

export type ReportKind = "Weekly" | "Monthly";

export interface Period {
  kind: ReportKind;
  /** first local day, YYYY-MM-DD */
  start: string;
  /** the local day after the last, YYYY-MM-DD */
  end: string;
}

const DAY_MS = 86_400_000;
const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormatters.set(tz, f);
  }
  return f;
}

/** Every IANA zone this runtime knows, UTC first (the Global Settings list). */
export const TIME_ZONES: string[] = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];

export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    partsFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time of an instant in a zone, as if it were UTC (ms). */
function wallClock(instant: number, tz: string): number {
  const p = Object.fromEntries(
    partsFormatter(tz)
      .formatToParts(new Date(instant))
      .map((x) => [x.type, x.value]),
  );
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
}

/** The local calendar date of an instant, YYYY-MM-DD. */
export function localDate(instant: Date, tz: string): string {
  return new Date(wallClock(instant.getTime(), tz)).toISOString().slice(0, 10);
}

/** The instant a local day begins (the first instant whose local date is `date`; DST-safe). */
export function localMidnight(date: string, tz: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`);
  // Two passes: the offset at the guess, then at the corrected instant (they differ across a DST change).
  let guess = wall - (wallClock(wall, tz) - wall);
  guess = wall - (wallClock(guess, tz) - guess);
  return new Date(guess);
}

export function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

function addMonths(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1)).toISOString().slice(0, 10);
}

/** The period of the given kind that contains a local date. */
export function periodContaining(kind: ReportKind, date: string): Period {
  if (kind === "Monthly") {
    const start = `${date.slice(0, 7)}-01`;
    return { kind, start, end: addMonths(start, 1) };
  }
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const start = addDays(date, -weekday);
  return { kind, start, end: addDays(start, 7) };
}

export function previousPeriod(p: Period): Period {
  return p.kind === "Monthly"
    ? { kind: p.kind, start: addMonths(p.start, -1), end: p.start }
    : { kind: p.kind, start: addDays(p.start, -7), end: p.start };
}

/** The newest period that has ended in the zone at `now`. */
export function lastClosedPeriod(kind: ReportKind, now: Date, tz: string): Period {
  return previousPeriod(periodContaining(kind, localDate(now, tz)));
}

/** Every closed period that starts on or after `since` (a local date), oldest first. */
export function closedPeriods(kind: ReportKind, since: string, now: Date, tz: string): Period[] {
  const out: Period[] = [];
  for (let p = lastClosedPeriod(kind, now, tz); p.start >= since; p = previousPeriod(p)) out.unshift(p);
  return out;
}

/** A period as UTC instants [from, to). */
export function periodBounds(p: Period, tz: string): { from: string; to: string } {
  return { from: localMidnight(p.start, tz).toISOString(), to: localMidnight(p.end, tz).toISOString() };
}

/** The local days of a period, YYYY-MM-DD. */
export function periodDays(p: Pick<Period, "start" | "end">): string[] {
  const days: string[] = [];
  for (let d = p.start; d < p.end; d = addDays(d, 1)) days.push(d);
  return days;
}

const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const monthYear = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** "Mia's weekly report: Nov 16 – Nov 22, 2026" or "Leo's monthly report: October 2026". */
export function periodTitle(kidName: string, p: Period): string {
  if (p.kind === "Monthly") return `${kidName}'s monthly report: ${monthYear.format(new Date(`${p.start}T00:00:00Z`))}`;
  const last = new Date(`${addDays(p.end, -1)}T00:00:00Z`);
  return `${kidName}'s weekly report: ${shortDay.format(new Date(`${p.start}T00:00:00Z`))} – ${shortDay.format(last)}, ${last.getUTCFullYear()}`;
}

/** "+12% on the week before", "−30% on the month before", against the previous period's total. */
export function changeAgainst(total: number, previous: number, kind: ReportKind): { percent: number | null; label: string } {
  const before = kind === "Weekly" ? "the week before" : "the month before";
  if (previous <= 0) return { percent: null, label: total > 0 ? `No screen time ${before}` : `No screen time, as ${before}` };
  const percent = Math.round(((total - previous) / previous) * 100);
  return { percent, label: percent === 0 ? `Same as ${before}` : `${percent > 0 ? "+" : "−"}${Math.abs(percent)}% on ${before}` };
}

const weekdayName = new Intl.DateTimeFormat("en-US", { weekday: "long", timeZone: "UTC" });
const dayOfMonth = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });

export function dayName(day: string, kind: ReportKind): string {
  const d = new Date(`${day}T00:00:00Z`);
  return kind === "Weekly" ? weekdayName.format(d) : dayOfMonth.format(d);
}
