import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// devices.unenrolled_at: a phone removed from the account (replaced, or its kid removed). The row stays so
// the kid keeps the phone's history (usage, locations, notifications); its credential is gone and the
// dashboard, the switcher and every command ignore it. Re-enrolling the same phone clears it.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("devices").addColumn("unenrolled_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("devices").dropColumn("unenrolled_at").execute();
}
