import { localDay, shiftDay, weekdayOf, zonedInstant } from "./zoned-time";

/**
 * The time rules' windows over real instants (issue 21), shared by the phone's one decision
 * (device-service/policy/enforce.ts) and the web filter's category schedules (issue 54): is now inside a schedule,
 * in the family's time zone. A schedule's window starts on each chosen weekday at `start` and ends at `end` the same
 * day, or the next day when it crosses midnight; both ends are read on the family's wall clock, so a window over a
 * daylight-saving change is an hour shorter or longer. Pure.
 */

export interface ScheduleTimes {
  /** Weekdays on which the window starts, 0 = Monday. */
  days: readonly number[];
  /** Minutes since the local midnight; end < start crosses midnight (21:00–07:00). */
  start: number;
  end: number;
}

export interface ZonedWindow<S extends ScheduleTimes = ScheduleTimes> {
  schedule: S;
  start: Date;
  end: Date;
}

/** The window of `s` that starts on `day` (a local calendar day), or null when `s` does not run that weekday. */
export function windowOn<S extends ScheduleTimes>(s: S, day: string, timeZone: string): ZonedWindow<S> | null {
  if (!s.days.includes(weekdayOf(day)) || s.start === s.end) return null;
  const start = zonedInstant(day, s.start, timeZone);
  const end = s.end > s.start ? zonedInstant(day, s.end, timeZone) : zonedInstant(shiftDay(day, 1), s.end, timeZone);
  return end > start ? { schedule: s, start, end } : null;
}

/** The windows of `schedules` that contain `now`. */
export function activeWindows<S extends ScheduleTimes>(schedules: readonly S[], now: Date, timeZone: string): ZonedWindow<S>[] {
  const today = localDay(now, timeZone);
  const out: ZonedWindow<S>[] = [];
  for (const s of schedules)
    for (const day of [shiftDay(today, -1), today]) {
      const w = windowOn(s, day, timeZone);
      if (w && w.start <= now && now < w.end) out.push(w);
    }
  return out;
}

/** Whether `now` lies inside a window of `s`. */
export function isInside(s: ScheduleTimes, now: Date, timeZone: string): boolean {
  return activeWindows([s], now, timeZone).length > 0;
}

/** The first window of `schedules` starting after `now` (within a week), or null. */
export function nextWindow<S extends ScheduleTimes>(schedules: readonly S[], now: Date, timeZone: string): ZonedWindow<S> | null {
  const today = localDay(now, timeZone);
  let best: ZonedWindow<S> | null = null;
  for (const s of schedules)
    for (let i = 0; i <= 7; i++) {
      const w = windowOn(s, shiftDay(today, i), timeZone);
      if (w && w.start > now) {
        if (!best || w.start < best.start) best = w;
        break;
      }
    }
  return best;
}
