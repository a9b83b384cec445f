import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Cached pages (the dashboard, Global Settings) say who last changed a setting: "Changed by Sam (sam@example.com)",
// read from that parent's row. The page cache's key holds only the viewing parent's row, so when the owner or a
// delegate changed their name or e-mail, another parent's cached page kept the old one. A parent's name or e-mail
// changing now moves the revision of every kid whose pages can name them: the kids they own, and the kids of every
// delegation they accepted (responded_by; revoked ones too, whose past changes still carry their name).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

// Two statements, not one with OR: PostgreSQL plans `parent_id = … OR id IN (subquery)` as a scan of every kid (the
// hashed subplan keeps it off both indexes); each of these finds its rows by an index.
const kidsNaming = (id: string) =>
  `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE parent_id = ${id}; ` +
  `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN ` +
  `(SELECT dk.profile_id FROM delegation_kids dk JOIN delegations d ON d.id = dk.delegation_id WHERE d.responded_by = ${id});`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql
      .raw(
        `CREATE FUNCTION kp_view_rev_by_actor() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${kidsNaming("NEW.id")} RETURN NULL; END $$`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER parents_actor_view_rev AFTER UPDATE OF name, email ON parents FOR EACH ROW ` +
          `WHEN (NEW.name IS DISTINCT FROM OLD.name OR NEW.email IS DISTINCT FROM OLD.email) EXECUTE FUNCTION kp_view_rev_by_actor()`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE TRIGGER parents_actor_view_rev AFTER UPDATE OF name, email ON parents FOR EACH ROW WHEN NEW.name IS NOT OLD.name OR NEW.email IS NOT OLD.email BEGIN ${kidsNaming("NEW.id")} END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS parents_actor_view_rev ON parents`.execute(db);
    await sql`DROP FUNCTION IF EXISTS kp_view_rev_by_actor()`.execute(db);
    return;
  }
  await sql`DROP TRIGGER IF EXISTS parents_actor_view_rev`.execute(db);
}
