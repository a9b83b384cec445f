import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 22 (reconnect storms): on PostgreSQL every phone status row moved its kid's view_rev with a PL/pgSQL
// trigger per ROW — each an UPDATE of the kid, which fires the kid's own row trigger. A batch of 500 statuses
// (socket/telemetry.ts writes them together) ran 500 such updates, and the presence sweep after kill -9 of a
// process holding 12,500 phones ran 12,500. They now fire once per STATEMENT with transition tables and move each
// affected kid's revision once. SQLite has no statement triggers and keeps its row trigger.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

const bump = (rows: string) =>
  `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN (SELECT d.profile_id FROM devices d WHERE d.id IN (${rows}));`;

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const fn = async (name: string, body: string) =>
    sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`).execute(db);
  await fn("kp_view_rev_by_status_ins", bump("SELECT device_id FROM new_rows"));
  await fn("kp_view_rev_by_status_upd", bump("SELECT device_id FROM old_rows UNION SELECT device_id FROM new_rows"));
  await fn("kp_view_rev_by_status_del", bump("SELECT device_id FROM old_rows"));
  await sql.raw(`DROP TRIGGER IF EXISTS device_status_view_rev ON device_status`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_status_view_rev_i AFTER INSERT ON device_status REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_status_ins()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_status_view_rev_u AFTER UPDATE ON device_status REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_status_upd()`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_status_view_rev_d AFTER DELETE ON device_status REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_by_status_del()`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS device_status_view_rev_${s} ON device_status`).execute(db);
  for (const f of ["kp_view_rev_by_status_ins", "kp_view_rev_by_status_upd", "kp_view_rev_by_status_del"])
    await sql.raw(`DROP FUNCTION IF EXISTS ${f}()`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_status_view_rev AFTER INSERT OR UPDATE OR DELETE ON device_status FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_device()`,
    )
    .execute(db);
}
