import { newId } from "../../../core/ids.server";
import type { DB } from "../../index";
import type { TimeRuleScope } from "../../schema-time-rules";

/** Extra minutes for the kid's `day` (its local day); the policy carries that day's and they end at its midnight. */
export async function addBonus(
  db: DB,
  g: { profileId: string; scope: TimeRuleScope; target: string; day: string; minutes: number; grantedBy: string | null },
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("bonus_grants")
    .values({ id: newId(), profile_id: g.profileId, scope: g.scope, target: g.target, day: g.day, minutes: g.minutes, granted_by: g.grantedBy, created_at: now.toISOString() })
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
