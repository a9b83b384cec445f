import { DEFAULT_TIME_ZONE, safeTimeZone } from "../../core/zoned-time";
import type { DB } from "../index";

/**
 * The family's IANA time zone (parents.time_zone; 'UTC' when unset or unknown to Intl). The one reader, so
 * reports (issue 16) and time rules (issue 21) agree on the kid's day.
 */
export async function familyTimeZone(db: DB, parentId: string): Promise<string> {
  const row = await db.selectFrom("parents").select("time_zone").where("id", "=", parentId).executeTakeFirst();
  return safeTimeZone(row?.time_zone ?? DEFAULT_TIME_ZONE);
}

/** The zone of the family a kid belongs to. */
export async function kidTimeZone(db: DB, profileId: string): Promise<string> {
  const row = await db
    .selectFrom("kid_profiles")
    .innerJoin("parents", "parents.id", "kid_profiles.parent_id")
    .select("parents.time_zone")
    .where("kid_profiles.id", "=", profileId)
    .executeTakeFirst();
  return safeTimeZone(row?.time_zone ?? DEFAULT_TIME_ZONE);
}

/** Sets the family's zone; false when Intl does not know it. */
export async function setFamilyTimeZone(db: DB, parentId: string, timeZone: string, now: Date = new Date()): Promise<boolean> {
  if (safeTimeZone(timeZone) !== timeZone) return false;
  await db.updateTable("parents").set({ time_zone: timeZone, updated_at: now.toISOString() }).where("id", "=", parentId).execute();
  return true;
}
