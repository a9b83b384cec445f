import { BONUS_MAX, BONUS_STEP } from "../core/limits";
import { localDay } from "../core/zoned-time";
import { addBonus } from "../db/queries/time-rules/bonus";
import { kidTimeZone } from "../db/queries/time-zone";
import type { TimeRuleScope } from "../db/schema-time-rules";
import type { DeviceServiceDeps } from "./context";
import { applyKidPolicies } from "./policy/store";

/** Bonus minutes come in 15-minute steps, at most a day's worth at once (core/limits.ts, shared with the pages). */
export { BONUS_MAX, BONUS_STEP } from "../core/limits";
export const BONUS_MESSAGE = "Please choose bonus time in steps of 15 minutes.";

export interface BonusGrant {
  profileId: string;
  scope: TimeRuleScope;
  /** '' for the whole phone, the category id or the package name. */
  target: string;
  minutes: number;
  /** The parent (or request approval) giving it; null for the system. */
  actor: string | null;
}

/**
 * Extra minutes for today only (issue 21 item 3): they add to the limit of the whole phone, a category or an
 * app until the kid's midnight, then end by themselves (the policy carries the day); the standing limits never
 * change. Requests' "Extend" approval (issue 14) calls this too. Every enrolled phone of the kid gets the policy.
 * Returns the kid's day the minutes are for and the policy version per phone.
 */
export async function grantBonus(
  deps: DeviceServiceDeps,
  g: BonusGrant,
  now: Date = new Date(),
): Promise<{ day: string; policyVersions: Record<string, number> }> {
  if (!Number.isInteger(g.minutes) || g.minutes < BONUS_STEP || g.minutes > BONUS_MAX || g.minutes % BONUS_STEP !== 0)
    throw new RangeError(BONUS_MESSAGE);
  const day = localDay(now, await kidTimeZone(deps.db, g.profileId));
  await addBonus(
    deps.db,
    { profileId: g.profileId, scope: g.scope, target: g.scope === "phone" ? "" : g.target, day, minutes: g.minutes, grantedBy: g.actor },
    now,
  );
  const applied = await applyKidPolicies(deps, g.profileId, g.actor, now);
  return { day, policyVersions: Object.fromEntries([...applied].map(([id, a]) => [id, a.version])) };
}
