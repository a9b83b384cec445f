import type { Transaction } from "kysely";
import type { Database } from "../../db/schema";
import { nowIso } from "../../core/ids.server";

/**
 * First delivery of a message id for this device? Stored in the same transaction as the effect, with the message's
 * kind: the per-phone daily caps count a phone's receipts of the day (socket/telemetry-limits.ts).
 */
export async function firstTime(trx: Transaction<Database>, deviceId: string, messageId: string, kind: string): Promise<boolean> {
  const r = await trx
    .insertInto("device_message_receipts")
    .values({ device_id: deviceId, message_id: messageId, received_at: nowIso(), kind })
    .onConflict((oc) => oc.columns(["device_id", "message_id"]).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
