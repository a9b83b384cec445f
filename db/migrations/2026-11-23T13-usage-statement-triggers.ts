import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 22 item 3 (ingest): on PostgreSQL the two usage tables moved kid_profiles.view_rev with a PL/pgSQL
// trigger per ROW: a group commit of 4,000 usage rows ran 8,000 row triggers, each an UPDATE of the kid
// (about a third of the ingest time, measured in bench/ingest.ts). They now fire once per STATEMENT with
// transition tables, and move each affected kid's revision once per statement — the page cache only needs
// the revision to change. SQLite has no statement triggers (FOR EACH ROW only) and keeps its row triggers;
// their share of ingest there is small.

const TABLES = ["app_usage_hourly", "app_usage_daily"] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

const bump = (rows: string) =>
  `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN (SELECT d.profile_id FROM devices d WHERE d.id IN (${rows}));`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const fn = async (name: string, body: string) =>
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`).execute(db);
  await fn("kp_view_rev_by_device_ins", bump("SELECT device_id FROM new_rows"));
  await fn("kp_view_rev_by_device_upd", bump("SELECT device_id FROM old_rows UNION SELECT device_id FROM new_rows"));
  await fn("kp_view_rev_by_device_del", bump("SELECT device_id FROM old_rows"));
  for (const t of TABLES) {
    await sql.raw(`DROP TRIGGER IF EXISTS ${t}_view_rev ON ${t}`).execute(db);
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
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const t of TABLES) {
    for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS ${t}_view_rev_${s} ON ${t}`).execute(db);
    await sql
      .raw(`CREATE TRIGGER ${t}_view_rev AFTER INSERT OR UPDATE OR DELETE ON ${t} FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_device()`)
      .execute(db);
  }
  for (const f of ["kp_view_rev_by_device_ins", "kp_view_rev_by_device_upd", "kp_view_rev_by_device_del"])
    await sql.raw(`DROP FUNCTION IF EXISTS ${f}()`).execute(db);
}
