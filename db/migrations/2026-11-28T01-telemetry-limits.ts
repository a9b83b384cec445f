import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Per-phone daily caps on what phones store (issue 52, finding 2): every stored notification, device log, browser
// visit, app request and location already leaves one receipt (device_message_receipts, one per phone and message
// id, in the same transaction). The receipt now says what kind of message it was, and an index by (phone, time)
// lets a device process count a phone's items of the day in one statement when it first hears from the phone that
// day (device-service/socket/telemetry-limits.ts); after that it counts in memory. Older receipts have no kind.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("device_message_receipts").addColumn("kind", "text").execute();
  await db.schema
    .createIndex("device_message_receipts_day_idx")
    .on("device_message_receipts")
    .columns(["device_id", "received_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("device_message_receipts_day_idx").ifExists().execute();
  await db.schema.alterTable("device_message_receipts").dropColumn("kind").execute();
}
