import { TRPCError } from "@trpc/server";
import { sql } from "kysely";
import type { DB } from "../../db/index";
import { possessive } from "../messages";

/** Abuse limit: commands one parent may send to one phone in any 60 seconds (LOCK, RING, SYNC, installs, …). */
export const COMMANDS_PER_MINUTE = 30;
const WINDOW_MS = 60_000;

export function tooManyCommandsMessage(kidName: string): string {
  return `You have sent ${COMMANDS_PER_MINUTE} commands to ${possessive(kidName)} phone in the last minute. Please wait a minute before sending another.`;
}

/**
 * Refuses a parent's command to a phone when they already sent 30 in the last minute. The count is the
 * outbox itself (device_commands rows issued by this parent to this phone), so it is shared by every
 * process and needs no counter of its own; the window slides, so it never resets at a minute boundary.
 */
export async function assertCommandBudget(db: DB, parentId: string, deviceId: string, kidName: string, now: Date = new Date()): Promise<void> {
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const row = await db
    .selectFrom("device_commands")
    .select(sql<number>`count(*)`.as("n"))
    .where("device_id", "=", deviceId)
    .where("issued_by", "=", parentId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(row.n) >= COMMANDS_PER_MINUTE) throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: tooManyCommandsMessage(kidName) });
}
