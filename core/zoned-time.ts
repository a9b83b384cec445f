/**
 * Wall-clock arithmetic in a family's IANA time zone with Intl alone (no Temporal, no tz database of our own).
 * Times that do not exist (the hour clocks spring forward over) move forward by the gap, times that happen
 * twice (the hour clocks fall back over) take the first: Temporal's "compatible" disambiguation. Pure.
 */

export const DEFAULT_TIME_ZONE = "UTC";
/** Monday first, as the pages show them. */
export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"] as const;
export const MINUTE_MS = 60_000;

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Monday … 6 = Sunday */
  weekday: number;
  /** YYYY-MM-DD */
  date: string;
  /** minutes since the local midnight */
  minuteOfDay: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** A name Intl knows (e.g. "Europe/London", "UTC"). */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== "string" || name.length === 0 || name.length > 64) return false;
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The zone to use: the given one when Intl knows it, UTC otherwise. */
export function safeTimeZone(name: unknown): string {
  return isTimeZone(name) ? name : DEFAULT_TIME_ZONE;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** The wall clock in `timeZone` at the instant `at`. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const { year, month, day, hour, minute, second } = parts as Record<"year" | "month" | "day" | "hour" | "minute" | "second", number>;
  const weekday = (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
  return { year, month, day, hour, minute, second, weekday, date: `${year}-${pad(month)}-${pad(day)}`, minuteOfDay: hour * 60 + minute };
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
export function offsetMs(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The local day (YYYY-MM-DD) at `at`. */
export function localDay(at: Date, timeZone: string): string {
  return wallClock(at, timeZone).date;
}

/** The weekday (0 = Monday) of a calendar day. */
export function weekdayOf(day: string): number {
  return (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The calendar day `n` days after `day`. */
export function shiftDay(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The instant the wall clock in `timeZone` shows `minuteOfDay` (may be 1440: the next midnight) on `day`. */
export function zonedInstant(day: string, minuteOfDay: number, timeZone: string): Date {
  const naive = Date.parse(`${day}T00:00:00Z`) + minuteOfDay * MINUTE_MS;
  // The zone's offsets a day either side cover any transition near this time.
  const offsets = [
    ...new Set([
      offsetMs(new Date(naive - 86_400_000), timeZone),
      offsetMs(new Date(naive), timeZone),
      offsetMs(new Date(naive + 86_400_000), timeZone),
    ]),
  ];
  const valid = offsets.map((o) => naive - o).filter((t) => offsetMs(new Date(t), timeZone) === naive - t);
  if (valid.length) return new Date(Math.min(...valid));
  // In a gap: the clock jumped over this time. Read it with the offset before the jump (moves forward by the gap).
  const before = offsetMs(new Date(naive - 86_400_000), timeZone);
  return new Date(naive - before);
}

/** The next local midnight after `at`. */
export function nextMidnight(at: Date, timeZone: string): Date {
  return zonedInstant(shiftDay(localDay(at, timeZone), 1), 0, timeZone);
}

/** "07:00" for minutes since midnight. */
export function hhmm(minuteOfDay: number): string {
  const m = ((minuteOfDay % 1440) + 1440) % 1440;
  return `${pad(Math.floor(m / 60))}:${pad(m % 60)}`;
}

/** Minutes since midnight from "HH:MM" (00:00–23:59), or null. */
export function parseHhmm(text: string): number | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** The local time of an instant as "HH:MM" in the zone. */
export function localTime(at: Date, timeZone: string): string {
  return hhmm(wallClock(at, timeZone).minuteOfDay);
}
