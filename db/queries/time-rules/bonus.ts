import { newId } from "../../../core/ids.server";
import type { DB } from "../../index";
import type { TimeRuleScope } from "../../schema-time-rules";
import { localDay } from "../../../core/zoned-time";
import { kidTimeZone } from "../time-zone";

/** Extra minutes for the kid's `day` (its local day); the policy carries that day's and they end at its midnight. */
export async function addBonus(
  db: DB,
  g: { profileId: string; scope: TimeRuleScope; target: string; day: string; minutes: number; grantedBy: string | null },
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("bonus_grants")
    .values({
      id: newId(),
      profile_id: g.profileId,
      scope: g.scope,
      target: g.target,
      day: g.day,
      minutes: g.minutes,
      granted_by: g.grantedBy,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface BonusTotal {
  scope: TimeRuleScope;
  target: string;
  minutes: number;
}

/** The bonus given for the kid's `day`, summed per scope and target. */
export async function bonusOnDay(db: DB, profileId: string, day: string): Promise<BonusTotal[]> {
  const rows = await db
    .selectFrom("bonus_grants")
    .select(["scope", "target", (eb) => eb.fn.sum<number>("minutes").as("minutes")])
    .where("profile_id", "=", profileId)
    .where("day", "=", day)
    .groupBy(["scope", "target"])
    .orderBy("scope")
    .orderBy("target")
    .execute();
  return rows.map((r) => ({ scope: r.scope, target: r.target, minutes: Number(r.minutes) }));
}

/**
 * The bonus given for the kid's today, summed per scope and target, in one round trip: the kid's local day is
 * the UTC day or one either side of it (zones run from UTC−12 to UTC+14), so the family's zone and the grants of
 * those three days are read at once and today's are kept once the zone names the day. A caller that has already
 * read the family's zone (the dashboard, with the kid) passes it, and the grants are the one statement.
 */
export async function bonusOnLocalToday(db: DB, profileId: string, now: Date = new Date(), knownTimeZone?: string): Promise<BonusTotal[]> {
  const days = [-1, 0, 1].map((d) => new Date(now.getTime() + d * 86_400_000).toISOString().slice(0, 10));
  const [timeZone, rows] = await Promise.all([
    knownTimeZone ?? kidTimeZone(db, profileId),
    db
      .selectFrom("bonus_grants")
      .select(["day", "scope", "target", (eb) => eb.fn.sum<number>("minutes").as("minutes")])
      .where("profile_id", "=", profileId)
      .where("day", "in", days)
      .groupBy(["day", "scope", "target"])
      .orderBy("scope")
      .orderBy("target")
      .execute(),
  ]);
  const day = localDay(now, timeZone);
  // Never reached with a real zone; kept so a wrong assumption reads the right day instead of none.
  if (!days.includes(day)) return bonusOnDay(db, profileId, day);
  return rows.filter((r) => r.day === day).map((r) => ({ scope: r.scope, target: r.target, minutes: Number(r.minutes) }));
}
