import { MINUTE_MS } from "../../core/zoned-time";
import type { ZonedWindow } from "../../core/schedule-windows";
import type { PolicySchedule, SessionRule } from "./time-rules";

/**
 * Schedules and sessions over real instants (issue 21). The windows are core/schedule-windows.ts (shared with the
 * web filter's category schedules); sessions are here. Pure.
 */

export type Window = ZonedWindow<PolicySchedule>;
export { activeWindows, nextWindow, windowOn } from "../../core/schedule-windows";

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
