import type { DB } from "../../db/index";

export async function isOnline(db: DB, deviceId: string): Promise<boolean> {
  const s = await db.selectFrom("device_status").select("online").where("device_id", "=", deviceId).executeTakeFirst();
  return s?.online === 1;
}

export function multipleOf15(n: number): boolean {
  return Number.isInteger(n) && n >= 0 && n % 15 === 0;
}

export const MULTIPLE_OF_15 = "Please enter time multiple of 15.";
