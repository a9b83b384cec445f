import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 22 item 3 (ingest): the two usage tables lose their view-revision triggers on both dialects. On SQLite
// they were row triggers (no statement triggers there): two `UPDATE kid_profiles` per usage row, about a quarter
// of the group commit's time (bench/ingest.ts: 0.27–0.30× raw with them, 0.39–0.41× without, same minutes). On
// PostgreSQL the statement triggers of 2026-11-23T13 fired four times per batch statement (insert and update
// of each table). Instead every writer of usage moves the revision of the phones' kids itself, once per
// transaction (db/view-revisions.ts `bumpKidsOfPhones`, the writers listed in USAGE_WRITERS there;
// db/view-revisions.test.ts fails on a writer that is not listed or does not bump).

const TABLES = ["app_usage_hourly", "app_usage_daily"] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  for (const t of TABLES)
    for (const s of ["i", "u", "d"])
      await sql.raw(`DROP TRIGGER IF EXISTS ${t}_view_rev_${s}${isPostgres(db) ? ` ON ${t}` : ""}`).execute(db);
  if (isPostgres(db))
    for (const f of ["kp_view_rev_by_device_ins", "kp_view_rev_by_device_upd", "kp_view_rev_by_device_del"])
      await sql.raw(`DROP FUNCTION IF EXISTS ${f}()`).execute(db);
}

const bumpPg = (rows: string) =>
  `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN (SELECT d.profile_id FROM devices d WHERE d.id IN (${rows}));`;
const kidOf = (row: "NEW" | "OLD") => `(SELECT profile_id FROM devices WHERE id = ${row}.device_id)`;
const bumpLite = (target: string) => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${target};`;

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    const fn = async (name: string, body: string) =>
      sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`).execute(db);
    await fn("kp_view_rev_by_device_ins", bumpPg("SELECT device_id FROM new_rows"));
    await fn("kp_view_rev_by_device_upd", bumpPg("SELECT device_id FROM old_rows UNION SELECT device_id FROM new_rows"));
    await fn("kp_view_rev_by_device_del", bumpPg("SELECT device_id FROM old_rows"));
    for (const t of TABLES) {
      await sql
        .raw(
          `CREATE TRIGGER ${t}_view_rev_i AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_device_ins()`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER ${t}_view_rev_u AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_device_upd()`,
        )
        .execute(db);
      await sql
        .raw(
          `CREATE TRIGGER ${t}_view_rev_d AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_device_del()`,
        )
        .execute(db);
    }
    return;
  }
  for (const t of TABLES) {
    await sql.raw(`CREATE TRIGGER ${t}_view_rev_i AFTER INSERT ON ${t} FOR EACH ROW BEGIN ${bumpLite(kidOf("NEW"))} END`).execute(db);
    await sql.raw(`CREATE TRIGGER ${t}_view_rev_d AFTER DELETE ON ${t} FOR EACH ROW BEGIN ${bumpLite(kidOf("OLD"))} END`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${t}_view_rev_u AFTER UPDATE ON ${t} FOR EACH ROW BEGIN ${bumpLite(kidOf("OLD"))} UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.device_id IS NOT OLD.device_id AND id = ${kidOf("NEW")}; END`,
      )
      .execute(db);
  }
}
