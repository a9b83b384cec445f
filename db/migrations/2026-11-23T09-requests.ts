import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports. Requests (issue 14).
//
// app_requests (created in 2026-11-21T01-device-service) gains:
//  - message_id: the phone's message id of the request, so the answer the phone gets names its own request;
//  - answered_by / answered_at: which parent answered and when (the answer is one conditional UPDATE of a
//    Pending row, so two parents answering at once produce one outcome).
// The dashboard's side menu counts pending requests, so app_requests writes move the kid's view_rev like the
// tables of 2026-11-22T00-view-revisions (same trigger functions).
//
// Today's extra minutes of an approved "Extend Time" request are bonus time (bonus_grants, 2026-11-23T07-time-rules).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("app_requests").addColumn("message_id", "text").execute();
  await db.schema.alterTable("app_requests").addColumn("answered_by", "text").execute();
  await db.schema.alterTable("app_requests").addColumn("answered_at", "text").execute();

  if (isPostgres(db)) {
    await sql`CREATE TRIGGER app_requests_view_rev AFTER INSERT OR UPDATE OR DELETE ON app_requests FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_profile()`.execute(
      db,
    );
    return;
  }
  const bump = (row: "NEW" | "OLD") => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${row}.profile_id;`;
  await sql.raw(`CREATE TRIGGER app_requests_view_rev_i AFTER INSERT ON app_requests FOR EACH ROW BEGIN ${bump("NEW")} END`).execute(db);
  await sql.raw(`CREATE TRIGGER app_requests_view_rev_d AFTER DELETE ON app_requests FOR EACH ROW BEGIN ${bump("OLD")} END`).execute(db);
  await sql
    .raw(
      `CREATE TRIGGER app_requests_view_rev_u AFTER UPDATE ON app_requests FOR EACH ROW BEGIN ${bump("OLD")} ` +
        `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.profile_id IS NOT OLD.profile_id AND id = NEW.profile_id; END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`DROP TRIGGER IF EXISTS app_requests_view_rev ON app_requests`.execute(db);
  else for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS app_requests_view_rev_${s}`).execute(db);
  await db.schema.alterTable("app_requests").dropColumn("answered_at").execute();
  await db.schema.alterTable("app_requests").dropColumn("answered_by").execute();
  await db.schema.alterTable("app_requests").dropColumn("message_id").execute();
}
