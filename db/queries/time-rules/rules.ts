import { localDay } from "../../../core/zoned-time";
import type { DB } from "../../index";
import type { TimeRuleScope } from "../../schema-time-rules";
import { kidTimeZone } from "../time-zone";
import { listSchedules, type ScheduleRow } from "./schedules";

/**
 * A kid's time rules (issue 21): weekday minutes, session limits and "Always allowed" per scope, read and
 * written here; schedules in ./schedules, bonus minutes in ./bonus. `loadTimeRules` gives the policy's input.
 */

export interface TimeRule {
  scope: TimeRuleScope;
  target: string;
  /** Seven minutes, Monday first, or null when the same every day. */
  weekdayMinutes: number[] | null;
  sessionMinutes: number | null;
  breakMinutes: number | null;
  alwaysAllowed: boolean;
}

function parseWeek(text: string | null): number[] | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) && v.length === 7 && v.every((n) => Number.isInteger(n) && n >= 0 && n <= 1440) ? (v as number[]) : null;
  } catch {
    return null;
  }
}

export async function listTimeRules(db: DB, profileId: string): Promise<TimeRule[]> {
  const rows = await db.selectFrom("kid_time_rules").selectAll().where("profile_id", "=", profileId).execute();
  return rows.map((r) => ({
    scope: r.scope,
    target: r.target,
    weekdayMinutes: parseWeek(r.weekday_minutes),
    sessionMinutes: r.session_minutes,
    breakMinutes: r.break_minutes,
    alwaysAllowed: Number(r.always_allowed) === 1,
  }));
}

export async function getTimeRule(db: DB, profileId: string, scope: TimeRuleScope, target: string): Promise<TimeRule> {
  const all = await listTimeRules(db, profileId);
  return (
    all.find((r) => r.scope === scope && r.target === target) ?? {
      scope,
      target,
      weekdayMinutes: null,
      sessionMinutes: null,
      breakMinutes: null,
      alwaysAllowed: false,
    }
  );
}

/** Writes the parts given; the row is removed when nothing is left set. */
export async function setTimeRule(
  db: DB,
  profileId: string,
  scope: TimeRuleScope,
  target: string,
  patch: Partial<Pick<TimeRule, "weekdayMinutes" | "sessionMinutes" | "breakMinutes" | "alwaysAllowed">>,
  now: Date = new Date(),
): Promise<void> {
  const next = { ...(await getTimeRule(db, profileId, scope, target)), ...patch };
  const empty = !next.weekdayMinutes && !next.sessionMinutes && !next.alwaysAllowed;
  await db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom("kid_time_rules")
      .where("profile_id", "=", profileId)
      .where("scope", "=", scope)
      .where("target", "=", target)
      .execute();
    if (empty) return;
    await tx
      .insertInto("kid_time_rules")
      .values({
        profile_id: profileId,
        scope,
        target,
        weekday_minutes: next.weekdayMinutes ? JSON.stringify(next.weekdayMinutes) : null,
        session_minutes: next.sessionMinutes || null,
        break_minutes: next.sessionMinutes ? next.breakMinutes || null : null,
        always_allowed: next.alwaysAllowed ? 1 : 0,
        updated_at: now.toISOString(),
      })
      .execute();
  });
}

function toPolicySchedule(s: ScheduleRow) {
  return {
    id: s.id,
    name: s.name,
    days: s.days,
    start: s.start,
    end: s.end,
    blocks: { all: s.blocksAll, categories: s.categories, apps: s.apps },
  };
}

/** Everything the policy needs of a kid's time rules, with today's bonus (the kid's local day at `now`). */
export async function loadTimeRules(db: DB, profileId: string, now: Date = new Date()) {
  const timeZone = await kidTimeZone(db, profileId);
  const bonusDay = localDay(now, timeZone);
  const [rules, schedules, bonus] = await Promise.all([
    listTimeRules(db, profileId),
    listSchedules(db, profileId),
    db
      .selectFrom("bonus_grants")
      .select(["scope", "target", "minutes"])
      .where("profile_id", "=", profileId)
      .where("day", "=", bonusDay)
      .execute(),
  ]);
  return {
    timeZone,
    weekdayLimits: rules.filter((r) => r.weekdayMinutes).map((r) => ({ scope: r.scope, target: r.target, minutes: r.weekdayMinutes! })),
    sessions: rules
      .filter((r): r is TimeRule & { scope: "category" | "app" } => r.scope !== "phone" && !!r.sessionMinutes && !!r.breakMinutes)
      .map((r) => ({ scope: r.scope, target: r.target, minutes: r.sessionMinutes!, breakMinutes: r.breakMinutes! })),
    alwaysAllowed: rules.filter((r) => r.scope === "app" && r.alwaysAllowed).map((r) => r.target),
    schedules: schedules.map(toPolicySchedule),
    bonus: bonus.map((b) => ({ scope: b.scope, target: b.target, minutes: Number(b.minutes) })),
    bonusDay,
  };
}
