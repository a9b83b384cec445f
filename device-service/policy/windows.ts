import { localDay, MINUTE_MS, shiftDay, weekdayOf, zonedInstant } from "../../core/zoned-time";
import type { PolicySchedule, SessionRule } from "./time-rules";

/**
 * Schedules and sessions over real instants (issue 21). A schedule's window starts on each chosen weekday at
 * `start` and ends at `end` the same day, or the next day when it crosses midnight; both ends are read on the
 * family's wall clock, so a window over a daylight-saving change is an hour shorter or longer. Pure.
 */

export interface Window {
  schedule: PolicySchedule;
  start: Date;
  end: Date;
}

/** The window of `s` that starts on `day` (a local calendar day), or null when `s` does not run that weekday. */
export function windowOn(s: PolicySchedule, day: string, timeZone: string): Window | null {
  if (!s.days.includes(weekdayOf(day)) || s.start === s.end) return null;
  const start = zonedInstant(day, s.start, timeZone);
  const end = s.end > s.start ? zonedInstant(day, s.end, timeZone) : zonedInstant(shiftDay(day, 1), s.end, timeZone);
  return end > start ? { schedule: s, start, end } : null;
}

/** The windows of `schedules` that contain `now`. */
export function activeWindows(schedules: readonly PolicySchedule[], now: Date, timeZone: string): Window[] {
  const today = localDay(now, timeZone);
  const out: Window[] = [];
  for (const s of schedules)
    for (const day of [shiftDay(today, -1), today]) {
      const w = windowOn(s, day, timeZone);
      if (w && w.start <= now && now < w.end) out.push(w);
    }
  return out;
}

/** The first window of `schedules` starting after `now` (within a week), or null. */
export function nextWindow(schedules: readonly PolicySchedule[], now: Date, timeZone: string): Window | null {
  const today = localDay(now, timeZone);
  let best: Window | null = null;
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

export interface UseInterval {
  packageName: string;
  start: Date;
  end: Date;
}

export interface SessionState {
  /** Minutes used in the current run (gaps shorter than the break do not end a run). */
  usedInRow: number;
  /** Minutes left before the break, 0 when on a break. */
  minutesLeft: number;
  /** When the break ends, when on one. */
  breakUntil: Date | null;
}

/** Where a session rule stands at `now` given the use of the apps it covers. */
export function sessionState(rule: SessionRule, intervals: readonly UseInterval[], packages: ReadonlySet<string>, now: Date): SessionState {
  const breakMs = rule.breakMinutes * MINUTE_MS;
  const mine = intervals
    .filter((i) => packages.has(i.packageName) && i.start < now)
    .map((i) => ({ start: i.start.getTime(), end: Math.min(i.end.getTime(), now.getTime()) }))
    .filter((i) => i.end > i.start)
    .sort((a, b) => a.start - b.start);
  let runMs = 0;
  let lastEnd = -Infinity;
  for (const i of mine) {
    if (i.start - lastEnd >= breakMs) runMs = 0;
    const from = Math.max(i.start, lastEnd);
    if (i.end > from) runMs += i.end - from;
    lastEnd = Math.max(lastEnd, i.end);
  }
  if (now.getTime() - lastEnd >= breakMs) runMs = 0;
  const usedInRow = Math.floor(runMs / MINUTE_MS);
  if (usedInRow >= rule.minutes) return { usedInRow, minutesLeft: 0, breakUntil: new Date(lastEnd + breakMs) };
  return { usedInRow, minutesLeft: rule.minutes - usedInRow, breakUntil: null };
}
