import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports. Apps and categories (issue 12): kids' and parents' ratings of apps.
// parent_ratings is read by the dashboard (an app a parent rated is no longer waiting for a rating), so its
// writes move the kid's view_rev like the tables of 2026-11-22T00-view-revisions (same trigger functions).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("kid_ratings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("rating", "integer", (c) => c.notNull())
    .addColumn("review", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("kid_ratings_package_idx").on("kid_ratings").columns(["package_name", "created_at"]).execute();

  await db.schema
    .createTable("parent_ratings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("is_educational", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_positive", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_suitable_content", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_easy_to_understand", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_recommend", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_easy_to_stop", "integer")
    .addColumn("review", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("parent_ratings_one_per_kid", ["parent_id", "profile_id", "package_name"])
    .execute();
  await db.schema.createIndex("parent_ratings_package_idx").on("parent_ratings").columns(["package_name", "updated_at"]).execute();
  await db.schema.createIndex("parent_ratings_profile_idx").on("parent_ratings").columns(["profile_id", "package_name"]).execute();

  if (isPostgres(db)) {
    await sql`CREATE TRIGGER parent_ratings_view_rev AFTER INSERT OR UPDATE OR DELETE ON parent_ratings FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_profile()`.execute(
      db,
    );
    return;
  }
  const bump = (row: "NEW" | "OLD") => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${row}.profile_id;`;
  await sql
    .raw(`CREATE TRIGGER parent_ratings_view_rev_i AFTER INSERT ON parent_ratings FOR EACH ROW BEGIN ${bump("NEW")} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER parent_ratings_view_rev_d AFTER DELETE ON parent_ratings FOR EACH ROW BEGIN ${bump("OLD")} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER parent_ratings_view_rev_u AFTER UPDATE ON parent_ratings FOR EACH ROW BEGIN ${bump("OLD")} ` +
        `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.profile_id IS NOT OLD.profile_id AND id = NEW.profile_id; END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`DROP TRIGGER IF EXISTS parent_ratings_view_rev ON parent_ratings`.execute(db);
  else for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS parent_ratings_view_rev_${s}`).execute(db);
  await db.schema.dropTable("parent_ratings").ifExists().execute();
  await db.schema.dropTable("kid_ratings").ifExists().execute();
}
