import type { DB } from "../../index";

/** Ring This Device: the phone's newest RING or STOP_SOUND command and its status (null when there is none). */
export async function latestRingCommand(db: DB, deviceId: string): Promise<{ type: string; status: string } | null> {
  const r = await db
    .selectFrom("device_commands")
    .select(["type", "status"])
    .where("device_id", "=", deviceId)
    .where("type", "in", ["RING", "STOP_SOUND"])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return r ? { type: r.type, status: r.status } : null;
}
