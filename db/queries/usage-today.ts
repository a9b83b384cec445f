import type { DB } from "../index";

/** The kid's "today" for limits: the UTC day until a family time zone exists. */
export function limitDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** Minutes one app was used on the phone today. */
export async function appUsedToday(db: DB, deviceId: string, packageName: string, now: Date = new Date()): Promise<number> {
  const r = await db
    .selectFrom("app_usage_daily")
    .select("minutes")
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .where("day", "=", limitDay(now))
    .executeTakeFirst();
  return Number(r?.minutes ?? 0);
}

/** Minutes the apps of one category were used on the phone today. */
export async function categoryUsedToday(db: DB, deviceId: string, category: string, now: Date = new Date()): Promise<number> {
  const r = await db
    .selectFrom("app_usage_daily as u")
    .innerJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
    .select((eb) => eb.fn.sum<number>("u.minutes").as("minutes"))
    .where("u.device_id", "=", deviceId)
    .where("u.day", "=", limitDay(now))
    .where("pa.play_store_category", "=", category)
    .executeTakeFirst();
  return Number(r?.minutes ?? 0);
}
