/**
 * What the portal says about an app from the one decision (issue 21 item 7): "25 minutes left today",
 * "Blocked by Bedtime until 07:00", "On a break until about 16:40", on the family's wall clock. Pure; the decision
 * comes from `explainDevice` (device-service/explain.ts).
 */
import { localDay, localTime, WEEKDAYS, wallClock } from "#core/zoned-time";

export interface DecisionLike {
  blocked: boolean;
  reason: string | null;
  until: Date | string | null;
  scheduleName: string | null;
  minutesLeft: number | null;
  nextChange: { at: Date | string; blocked: boolean; reason: string | null; scheduleName: string | null } | null;
}

export interface Explanation {
  text: string;
  /** blocked: the app cannot be used now; limited: minutes left or a schedule ahead. */
  tone: "blocked" | "limited";
}

const toDate = (d: Date | string) => (d instanceof Date ? d : new Date(d));

/** "07:00" today or tomorrow (the kid's day), else "Monday 07:00". */
export function untilText(at: Date | string, now: Date, timeZone: string): string {
  const when = toDate(at);
  const time = localTime(when, timeZone);
  const days = Math.round((Date.parse(localDay(when, timeZone)) - Date.parse(localDay(now, timeZone))) / 86_400_000);
  return days <= 1 ? time : `${WEEKDAYS[wallClock(when, timeZone).weekday]} ${time}`;
}

export const minutesText = (n: number) => `${n} ${n === 1 ? "minute" : "minutes"}`;

export function explainDecision(d: DecisionLike | null | undefined, timeZone: string, now: Date): Explanation | null {
  if (!d) return null;
  const until = d.until ? untilText(d.until, now, timeZone) : null;
  if (d.blocked) {
    switch (d.reason) {
      case "Cronjob":
        return { text: `Blocked by ${d.scheduleName ?? "a schedule"}${until ? ` until ${until}` : ""}`, tone: "blocked" };
      case "Session Break":
        // "about": phones report minutes per hour, not when in the hour, so the portal can only estimate when a
        // run of use ended (docs/time-rules.md "Session breaks"); the phone itself knows the exact end.
        return { text: `On a break${until ? ` until about ${until}` : ""}`, tone: "blocked" };
      case "Overuse":
        return { text: "Today's time is used up", tone: "blocked" };
      case "Category Overuse":
        return { text: "The category's time is used up today", tone: "blocked" };
      case "Global Daily Limit Reach":
        return { text: "The phone's time is used up today", tone: "blocked" };
      default:
        return { text: "Turned off by a parent", tone: "blocked" };
    }
  }
  if (d.minutesLeft !== null) return { text: `${minutesText(d.minutesLeft)} left today`, tone: "limited" };
  const next = d.nextChange;
  if (next?.blocked && next.reason === "Cronjob" && localDay(toDate(next.at), timeZone) === localDay(now, timeZone)) {
    return { text: `${next.scheduleName ?? "A schedule"} starts at ${localTime(toDate(next.at), timeZone)}`, tone: "limited" };
  }
  return null;
}

/** A schedule's days as people say them: "Every day", "Monday to Friday", "Saturday and Sunday", "Monday, Wednesday". */
export function daysText(days: readonly number[]): string {
  const d = [...new Set(days)].filter((x) => x >= 0 && x <= 6).sort();
  if (d.length === 7) return "Every day";
  if (d.length === 0) return "No day";
  if (d.length >= 3 && d.every((x, i) => i === 0 || x === d[i - 1] + 1)) return `${WEEKDAYS[d[0]]} to ${WEEKDAYS[d[d.length - 1]]}`;
  const names = d.map((x) => WEEKDAYS[x]);
  return names.length === 2 ? `${names[0]} and ${names[1]}` : names.join(", ");
}
