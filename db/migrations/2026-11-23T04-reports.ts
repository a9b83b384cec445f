import type { Kysely } from "kysely";

// Frozen in time: no application imports. Reports (issue 16): one row per kid, kind and period, built by a job
// when the period closes in the family's time zone and never changed afterwards (its numbers and chart images
// are stored with it). UNIQUE(profile_id, kind, period_start) makes building idempotent: an insert that meets
// an existing row does nothing. The parent's time zone (IANA, UTC until set) decides when a period closes.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("parents")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
  await db.schema
    .createTable("reports")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("period_end", "text", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("total_minutes", "integer", (c) => c.notNull())
    .addColumn("previous_minutes", "integer", (c) => c.notNull())
    // JSON documents: [{ day, name, minutes }], [{ packageName, name, icon, minutes }], [{ category, name, minutes }],
    // [{ kind, name, day, minutes, limit }], [{ packageName, name, type, status, at }]
    .addColumn("daily_usage", "text", (c) => c.notNull())
    .addColumn("top_apps", "text", (c) => c.notNull())
    .addColumn("top_categories", "text", (c) => c.notNull())
    .addColumn("limits_hit", "text", (c) => c.notNull())
    .addColumn("requests_answered", "text", (c) => c.notNull())
    .addColumn("bar_svg", "text", (c) => c.notNull())
    .addColumn("pie_svg", "text", (c) => c.notNull())
    .addColumn("bar_png", isPostgres(db) ? "bytea" : "blob")
    .addColumn("pie_png", isPostgres(db) ? "bytea" : "blob")
    // pending → sending → sent; none for back-filled reports (no mail for the past).
    .addColumn("mail_state", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("mail_claimed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("reports_kid_period_unique", ["profile_id", "kind", "period_start"])
    .execute();
  await db.schema.createIndex("reports_mail_state_idx").on("reports").columns(["mail_state"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("reports").ifExists().execute();
  await db.schema.alterTable("parents").dropColumn("time_zone").execute();
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}
