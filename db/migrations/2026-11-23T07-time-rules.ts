import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports. Time rules (issue 21):
//  - parents.time_zone: the family's IANA zone (days, weekdays and windows are the kid's wall clock). Issue 16
//    adds the same column in its own migration; whichever runs first adds it, the other leaves it.
//  - kid_time_rules: per kid and scope ('phone' | 'category' | 'app', target '' | category | package): minutes
//    per weekday (JSON, Monday first) when they differ by day, a session limit (N minutes in a row, then M
//    minutes' break) and "Always allowed" (apps).
//  - kid_schedules: time windows (Bedtime, School time) with weekdays (JSON, 0 = Monday), start and end in
//    minutes since midnight (end < start crosses midnight), and what they block (all, or categories and apps).
//  - bonus_grants: extra minutes for one of the kid's days (the kid's local day); they end at its midnight.
//    The dashboard shows today's, so its writes move the kid's view_rev like parent_ratings (2026-11-23T02).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  const parents = (await db.introspection.getTables()).find((t) => t.name === "parents");
  if (!parents?.columns.some((c) => c.name === "time_zone")) {
    await db.schema
      .alterTable("parents")
      .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
      .execute();
  }

  await db.schema
    .createTable("kid_time_rules")
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("weekday_minutes", "text")
    .addColumn("session_minutes", "integer")
    .addColumn("break_minutes", "integer")
    .addColumn("always_allowed", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("kid_time_rules_pk", ["profile_id", "scope", "target"])
    .execute();

  await db.schema
    .createTable("kid_schedules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("days", "text", (c) => c.notNull())
    .addColumn("start_minute", "integer", (c) => c.notNull())
    .addColumn("end_minute", "integer", (c) => c.notNull())
    .addColumn("blocks_all", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("categories", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("apps", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("kid_schedules_profile_idx").on("kid_schedules").columns(["profile_id", "start_minute"]).execute();

  await db.schema
    .createTable("bonus_grants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull())
    .addColumn("minutes", "integer", (c) => c.notNull())
    .addColumn("granted_by", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("bonus_grants_profile_day_idx").on("bonus_grants").columns(["profile_id", "day"]).execute();

  if (isPostgres(db)) {
    await sql`CREATE TRIGGER bonus_grants_view_rev AFTER INSERT OR UPDATE OR DELETE ON bonus_grants FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_profile()`.execute(
      db,
    );
    return;
  }
  const bump = (row: "NEW" | "OLD") => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${row}.profile_id;`;
  await sql.raw(`CREATE TRIGGER bonus_grants_view_rev_i AFTER INSERT ON bonus_grants FOR EACH ROW BEGIN ${bump("NEW")} END`).execute(db);
  await sql.raw(`CREATE TRIGGER bonus_grants_view_rev_d AFTER DELETE ON bonus_grants FOR EACH ROW BEGIN ${bump("OLD")} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER bonus_grants_view_rev_u AFTER UPDATE ON bonus_grants FOR EACH ROW BEGIN ${bump("OLD")} ` +
        `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.profile_id IS NOT OLD.profile_id AND id = NEW.profile_id; END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`DROP TRIGGER IF EXISTS bonus_grants_view_rev ON bonus_grants`.execute(db);
  else for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS bonus_grants_view_rev_${s}`).execute(db);
  await db.schema.dropTable("bonus_grants").ifExists().execute();
  await db.schema.dropTable("kid_schedules").ifExists().execute();
  await db.schema.dropTable("kid_time_rules").ifExists().execute();
  // parents.time_zone stays: issue 16's migration may own it.
}
