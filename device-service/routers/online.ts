import type { DB } from "../../db/index";

export async function isOnline(db: DB, deviceId: string): Promise<boolean> {
  const s = await db.selectFrom("device_status").select("online").where("device_id", "=", deviceId).executeTakeFirst();
  return s?.online === 1;
}
