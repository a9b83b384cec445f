import type { Kysely } from "kysely";

// Frozen in time: no application imports. Browser logs (issue 15): how many of a day's visits to an address the
// phone blocked (each visit is reported, allowed or blocked), and an index for the blocked list (the policy's
// blockedUrls and the page's "covered by" lookups read every blocked row of a phone).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("browser_logs")
    .addColumn("blocked_visits", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("browser_logs_device_blocked_idx").on("browser_logs").columns(["device_id", "is_blocked"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("browser_logs_device_blocked_idx").ifExists().execute();
  await db.schema.alterTable("browser_logs").dropColumn("blocked_visits").execute();
}
