import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Delegated access (spec 1 §2, §3, §6) and who changed what:
//  - delegations: who answered (the verified account that accepted or rejected), when, and when it was revoked;
//  - "changed by": every setting row a parent writes carries the parent who wrote it last, in the same row, so
//    the value and its author change together (and the view_rev triggers see both at once);
//  - parent_notifications: the portal's messages to a parent about access (invited, accepted, rejected,
//    revoked), addressed by email so an invitee who signs up later finds theirs.
// The actor columns hold a parent id without a foreign key (SQLite cannot drop a column that has one, and a
// parent is never deleted while their changes are shown); readers left-join parents.

/** Setting rows and the column that names the parent who last wrote them. */
const ACTOR_COLUMNS: [table: string, column: string][] = [
  ["kid_profiles", "sleep_mode_by"],
  ["kid_profiles", "updated_by"],
  ["devices", "settings_updated_by"],
  ["global_settings", "updated_by"],
  ["location_settings", "updated_by"],
  ["profile_apps", "updated_by"],
  ["category_limits", "updated_by"],
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("delegations").addColumn("responded_by", "text").execute();
  await db.schema.alterTable("delegations").addColumn("responded_at", "text").execute();
  await db.schema.alterTable("delegations").addColumn("revoked_at", "text").execute();
  await db.schema.createIndex("delegations_owner_idx").on("delegations").columns(["owner_parent_id", "created_at"]).execute();
  await db.schema.createIndex("delegation_kids_profile_idx").on("delegation_kids").column("profile_id").execute();

  for (const [table, column] of ACTOR_COLUMNS) {
    await db.schema.alterTable(table).addColumn(column, "text").execute();
  }

  await db.schema
    .createTable("parent_notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("recipient_email", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("link", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema
    .createIndex("parent_notifications_recipient_idx")
    .on("parent_notifications")
    .columns(["recipient_email", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("parent_notifications").ifExists().execute();
  for (const [table, column] of [...ACTOR_COLUMNS].reverse()) {
    await db.schema.alterTable(table).dropColumn(column).execute();
  }
  await db.schema.dropIndex("delegation_kids_profile_idx").ifExists().execute();
  await db.schema.dropIndex("delegations_owner_idx").ifExists().execute();
  for (const column of ["revoked_at", "responded_at", "responded_by"]) {
    await db.schema.alterTable("delegations").dropColumn(column).execute();
  }
}
