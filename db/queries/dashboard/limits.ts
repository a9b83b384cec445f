import type { DB } from "../../index";

export const GLOBAL_DAILY_LIMIT_KEY = "GlobalDailyLimit";

/** Minutes and limits: the kid phone's global daily limit (global settings page). */

export async function getGlobalDailyLimit(db: DB, deviceId: string): Promise<number> {
  const r = await db
    .selectFrom("global_settings")
    .select("value")
    .where("device_id", "=", deviceId)
    .where("key", "=", GLOBAL_DAILY_LIMIT_KEY)
    .executeTakeFirst();
  const n = Number.parseInt(r?.value ?? "0", 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
