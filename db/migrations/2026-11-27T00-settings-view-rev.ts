import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 22 (mixed load): the page cache keeps Global Settings as it keeps the dashboard, keyed by the kid's
// view_rev. The settings page reads two tables the dashboard does not, so their writes now move the revision too:
//  - kid_time_rules (the weekday limits): every insert, update and delete, for the rule's kid;
//  - device_commands, its RING and STOP_SOUND rows only (the ring state). Every other command (a Lock, a policy
//    push, an install) changes nothing either page shows, and moving the revision for them would throw away
//    both cached pages at every Lock.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

const RING = "('RING', 'STOP_SOUND')";

export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`CREATE TRIGGER kid_time_rules_view_rev AFTER INSERT OR UPDATE OR DELETE ON kid_time_rules FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_profile()`.execute(
      db,
    );
    // A WHEN may name NEW only on insert and update, OLD only on update and delete: one trigger per event.
    await sql
      .raw(
        `CREATE TRIGGER device_commands_ring_view_rev_i AFTER INSERT ON device_commands FOR EACH ROW WHEN (NEW.type IN ${RING}) EXECUTE FUNCTION kp_view_rev_by_device()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER device_commands_ring_view_rev_u AFTER UPDATE ON device_commands FOR EACH ROW WHEN (NEW.type IN ${RING} OR OLD.type IN ${RING}) EXECUTE FUNCTION kp_view_rev_by_device()`,
      )
      .execute(db);
    await sql
      .raw(
        `CREATE TRIGGER device_commands_ring_view_rev_d AFTER DELETE ON device_commands FOR EACH ROW WHEN (OLD.type IN ${RING}) EXECUTE FUNCTION kp_view_rev_by_device()`,
      )
      .execute(db);
    return;
  }
  const bump = (target: string) => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${target};`;
  const ofPhone = (row: "NEW" | "OLD") => `(SELECT profile_id FROM devices WHERE id = ${row}.device_id)`;
  await sql
    .raw(`CREATE TRIGGER kid_time_rules_view_rev_i AFTER INSERT ON kid_time_rules FOR EACH ROW BEGIN ${bump("NEW.profile_id")} END`)
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER kid_time_rules_view_rev_d AFTER DELETE ON kid_time_rules FOR EACH ROW BEGIN ${bump("OLD.profile_id")} END`)
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER kid_time_rules_view_rev_u AFTER UPDATE ON kid_time_rules FOR EACH ROW BEGIN ${bump("OLD.profile_id")} ` +
        `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.profile_id IS NOT OLD.profile_id AND id = NEW.profile_id; END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_commands_ring_view_rev_i AFTER INSERT ON device_commands FOR EACH ROW WHEN NEW.type IN ${RING} BEGIN ${bump(ofPhone("NEW"))} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_commands_ring_view_rev_d AFTER DELETE ON device_commands FOR EACH ROW WHEN OLD.type IN ${RING} BEGIN ${bump(ofPhone("OLD"))} END`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER device_commands_ring_view_rev_u AFTER UPDATE ON device_commands FOR EACH ROW WHEN NEW.type IN ${RING} OR OLD.type IN ${RING} BEGIN ${bump(ofPhone("OLD"))} ` +
        `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.device_id IS NOT OLD.device_id AND id = ${ofPhone("NEW")}; END`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const names = [
    "kid_time_rules_view_rev",
    "device_commands_ring_view_rev_i",
    "device_commands_ring_view_rev_u",
    "device_commands_ring_view_rev_d",
  ];
  if (isPostgres(db)) {
    await sql`DROP TRIGGER IF EXISTS kid_time_rules_view_rev ON kid_time_rules`.execute(db);
    for (const n of names.slice(1)) await sql.raw(`DROP TRIGGER IF EXISTS ${n} ON device_commands`).execute(db);
    return;
  }
  for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS kid_time_rules_view_rev_${s}`).execute(db);
  for (const n of names.slice(1)) await sql.raw(`DROP TRIGGER IF EXISTS ${n}`).execute(db);
}
