import type { Kysely } from "kysely";

// Frozen in time: no application imports. The web filter's per-kid policy (issue 54 item 2).
//
// - web_filter_settings: one row per kid. `filter_id` (random, lower-case [a-z0-9], unique) names the kid's phone to
//   the resolver: its Private DNS hostname is `<filter_id>.<DNS_FILTER_DOMAIN>`. `revoked_at` set = refused (a phone
//   replaced or removed); ensuring an id for a revoked kid gives a new one. SafeSearch (0/1), YouTube Restricted Mode
//   ('off' | 'moderate' | 'strict') and the always-allowed hosts (JSON array; a host allows its subdomains).
// - web_filter_blocked_categories: the categories blocked for a kid; `schedule_id` null = always, else only inside
//   that time rules' window (kid_schedules). A deleted schedule leaves the category blocked always (fail closed).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("web_filter_settings")
    .addColumn("profile_id", "text", (c) => c.primaryKey().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("filter_id", "text", (c) => c.notNull().unique())
    .addColumn("revoked_at", "text")
    .addColumn("safe_search", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("youtube_mode", "text", (c) => c.notNull().defaultTo("off"))
    .addColumn("allow_list", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("web_filter_blocked_categories")
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("category_id", "text", (c) => c.notNull().references("web_filter_categories.id").onDelete("cascade"))
    .addColumn("schedule_id", "text", (c) => c.references("kid_schedules.id").onDelete("set null"))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("web_filter_blocked_categories_pk", ["profile_id", "category_id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("web_filter_blocked_categories").ifExists().execute();
  await db.schema.dropTable("web_filter_settings").ifExists().execute();
}
