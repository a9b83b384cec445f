import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports. The Play Store (issue 13).
//
// - master_applications: the store's record of an app once a parent installs it anywhere (spec 2 §3 "Master
//   application": product_id, package_name, app_icon, application_details, type). Created before the kid's
//   profile application.
// - profile_apps gains install_type (FORCE_INSTALLED for store installs), install_state (installing | installed |
//   failed; null for apps the phone reported on its own) and request_id (the kid's request it answered).
// - install_retries gains free_storage_mb (what the phone had free when an install failed for storage: the install
//   resumes once it reports more); device_status gains free_storage_mb (the phone's last report).
// - Catalogue search: SQLite FTS5 table catalog_apps_fts (unicode61, diacritics removed, prefix indexes) kept by
//   triggers; PostgreSQL catalog_apps.search_vector (weighted tsvector over accent-folded text, GIN index) kept by a
//   BEFORE trigger. Both rank title above developer above description.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

/** Accented Latin letters and what they fold to (PostgreSQL; SQLite's tokenizer removes diacritics itself). */
const ACCENTED = "àáâãäåāăąçćĉċčďđèéêëēĕėęěĝğġģĥħìíîïĩīĭįıĵķĺļľŀłñńņňŉòóôõöøōŏőŕŗřśŝşšţťŧùúûüũūŭůűųŵýÿŷźżžß";
const FOLDED = "aaaaaaaaacccccddeeeeeeeeegggghhiiiiiiiiijklllllnnnnnooooooooorrrsssstttuuuuuuuuuuwyyyzzzs";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("master_applications")
    .addColumn("product_id", "text", (c) => c.primaryKey())
    .addColumn("package_name", "text", (c) => c.notNull().unique())
    .addColumn("app_icon", "text")
    .addColumn("application_details", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull().defaultTo("Android"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("profile_apps").addColumn("install_type", "text").execute();
  await db.schema.alterTable("profile_apps").addColumn("install_state", "text").execute();
  await db.schema.alterTable("profile_apps").addColumn("request_id", "text").execute();
  await db.schema.alterTable("install_retries").addColumn("free_storage_mb", "integer").execute();
  await db.schema.alterTable("device_status").addColumn("free_storage_mb", "integer").execute();
  await db.schema.createIndex("install_retries_status_idx").on("install_retries").columns(["status", "device_id"]).execute();

  if (isPostgres(db)) {
    if ([...ACCENTED].length !== [...FOLDED].length) throw new Error("accent map out of step");
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION kp_fold(t text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT translate(lower(coalesce(t, '')), '${ACCENTED}', '${FOLDED}') $$`,
      )
      .execute(db);
    await sql`ALTER TABLE catalog_apps ADD COLUMN search_vector tsvector`.execute(db);
    await sql`
      CREATE OR REPLACE FUNCTION kp_catalog_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.search_vector :=
          setweight(to_tsvector('simple', kp_fold(NEW.title)), 'A') ||
          setweight(to_tsvector('simple', kp_fold(NEW.developer)), 'B') ||
          setweight(to_tsvector('simple', kp_fold(regexp_replace(coalesce(NEW.description_html, ''), '<[^>]*>', ' ', 'g'))), 'C');
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER catalog_apps_search BEFORE INSERT OR UPDATE OF title, developer, description_html ON catalog_apps FOR EACH ROW EXECUTE FUNCTION kp_catalog_search_vector()`.execute(
      db,
    );
    await sql`UPDATE catalog_apps SET title = title`.execute(db);
    await sql`CREATE INDEX catalog_apps_search_idx ON catalog_apps USING gin (search_vector)`.execute(db);
    return;
  }
  await sql
    .raw(
      "CREATE VIRTUAL TABLE catalog_apps_fts USING fts5(package_name UNINDEXED, title, developer, description, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')",
    )
    .execute(db);
  const row = (r: "NEW" | "OLD") => `${r}.package_name, ${r}.title, coalesce(${r}.developer, ''), coalesce(${r}.description_html, '')`;
  await sql
    .raw(
      `CREATE TRIGGER catalog_apps_fts_i AFTER INSERT ON catalog_apps BEGIN INSERT INTO catalog_apps_fts (package_name, title, developer, description) VALUES (${row("NEW")}); END`,
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER catalog_apps_fts_d AFTER DELETE ON catalog_apps BEGIN DELETE FROM catalog_apps_fts WHERE package_name = OLD.package_name; END",
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER catalog_apps_fts_u AFTER UPDATE OF package_name, title, developer, description_html ON catalog_apps BEGIN " +
        `DELETE FROM catalog_apps_fts WHERE package_name = OLD.package_name; INSERT INTO catalog_apps_fts (package_name, title, developer, description) VALUES (${row("NEW")}); END`,
    )
    .execute(db);
  await sql`INSERT INTO catalog_apps_fts (package_name, title, developer, description) SELECT package_name, title, coalesce(developer, ''), coalesce(description_html, '') FROM catalog_apps`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS catalog_apps_search ON catalog_apps`.execute(db);
    await sql`DROP INDEX IF EXISTS catalog_apps_search_idx`.execute(db);
    await sql`ALTER TABLE catalog_apps DROP COLUMN IF EXISTS search_vector`.execute(db);
    await sql`DROP FUNCTION IF EXISTS kp_catalog_search_vector()`.execute(db);
    await sql`DROP FUNCTION IF EXISTS kp_fold(text)`.execute(db);
  } else {
    for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS catalog_apps_fts_${s}`).execute(db);
    await sql`DROP TABLE IF EXISTS catalog_apps_fts`.execute(db);
  }
  await db.schema.dropIndex("install_retries_status_idx").ifExists().execute();
  await db.schema.alterTable("device_status").dropColumn("free_storage_mb").execute();
  await db.schema.alterTable("install_retries").dropColumn("free_storage_mb").execute();
  for (const c of ["request_id", "install_state", "install_type"]) await db.schema.alterTable("profile_apps").dropColumn(c).execute();
  await db.schema.dropTable("master_applications").ifExists().execute();
}
