import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// kid_profiles.view_rev: a counter that changes whenever anything the kid's dashboard shows changes. The
// database keeps it, with triggers, so every writer counts (web actions, the device service in any process,
// jobs, seeds, a psql session) and nobody has to remember to bump it. The page cache keys rendered dashboards
// by it (app/utils/page-cache.server.ts); a trigger-covered table list lives in VIEW_REV_TABLES (db/view-revisions.ts) and a
// test checks that the dashboard reads nothing outside it.

/** Tables whose rows carry the kid directly. */
const BY_PROFILE = ["devices", "profile_apps", "category_limits", "notifications"] as const;
/** Tables whose rows carry the phone; the kid is the phone's profile. */
const BY_DEVICE = [
  "device_status",
  "app_usage_hourly",
  "app_usage_daily",
  "global_settings",
  "location_settings",
  "device_locations",
  "device_policies",
] as const;
/** Shared catalogue tables (written by seeds and migrations only): a change counts for every kid. */
const EVERYONE = ["store_categories", "catalog_apps"] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("kid_profiles")
    .addColumn("view_rev", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  if (isPostgres(db)) {
    await sql`CREATE FUNCTION kp_view_rev_self() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.view_rev = OLD.view_rev THEN NEW.view_rev := OLD.view_rev + 1; END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`CREATE TRIGGER kid_profiles_view_rev BEFORE UPDATE ON kid_profiles FOR EACH ROW EXECUTE FUNCTION kp_view_rev_self()`.execute(
      db,
    );

    await sql`CREATE FUNCTION kp_view_rev_by_profile() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = OLD.profile_id; END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.profile_id IS DISTINCT FROM OLD.profile_id) THEN
          UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = NEW.profile_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE FUNCTION kp_view_rev_by_device() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = (SELECT profile_id FROM devices WHERE id = OLD.device_id);
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.device_id IS DISTINCT FROM OLD.device_id) THEN
          UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = (SELECT profile_id FROM devices WHERE id = NEW.device_id);
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE FUNCTION kp_view_rev_everyone() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE kid_profiles SET view_rev = view_rev + 1;
        RETURN NULL;
      END $$`.execute(db);
    for (const t of BY_PROFILE) {
      await sql`CREATE TRIGGER ${sql.raw(`${t}_view_rev`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(t)} FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_profile()`.execute(
        db,
      );
    }
    for (const t of BY_DEVICE) {
      await sql`CREATE TRIGGER ${sql.raw(`${t}_view_rev`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(t)} FOR EACH ROW EXECUTE FUNCTION kp_view_rev_by_device()`.execute(
        db,
      );
    }
    for (const t of EVERYONE) {
      await sql`CREATE TRIGGER ${sql.raw(`${t}_view_rev`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(t)} FOR EACH STATEMENT EXECUTE FUNCTION kp_view_rev_everyone()`.execute(
        db,
      );
    }
    return;
  }

  // SQLite: one trigger per event. recursive_triggers is off (the default), and the WHEN clause guards anyway.
  await sql`CREATE TRIGGER kid_profiles_view_rev AFTER UPDATE ON kid_profiles FOR EACH ROW WHEN NEW.view_rev = OLD.view_rev
    BEGIN UPDATE kid_profiles SET view_rev = OLD.view_rev + 1 WHERE id = NEW.id; END`.execute(db);
  const kidOf = (key: "profile" | "device", row: "NEW" | "OLD") =>
    key === "profile" ? `${row}.profile_id` : `(SELECT profile_id FROM devices WHERE id = ${row}.device_id)`;
  const bump = (target: string) => `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id = ${target};`;
  const tables: [string, "profile" | "device"][] = [
    ...BY_PROFILE.map((t) => [t, "profile"] as [string, "profile"]),
    ...BY_DEVICE.map((t) => [t, "device"] as [string, "device"]),
  ];
  for (const [t, key] of tables) {
    const col = key === "profile" ? "profile_id" : "device_id";
    await sql.raw(`CREATE TRIGGER ${t}_view_rev_i AFTER INSERT ON ${t} FOR EACH ROW BEGIN ${bump(kidOf(key, "NEW"))} END`).execute(db);
    await sql.raw(`CREATE TRIGGER ${t}_view_rev_d AFTER DELETE ON ${t} FOR EACH ROW BEGIN ${bump(kidOf(key, "OLD"))} END`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER ${t}_view_rev_u AFTER UPDATE ON ${t} FOR EACH ROW BEGIN ${bump(kidOf(key, "OLD"))} ` +
          `UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE NEW.${col} IS NOT OLD.${col} AND id = ${kidOf(key, "NEW")}; END`,
      )
      .execute(db);
  }
  for (const t of EVERYONE) {
    for (const [suffix, event] of [
      ["i", "INSERT"],
      ["u", "UPDATE"],
      ["d", "DELETE"],
    ] as const) {
      await sql
        .raw(
          `CREATE TRIGGER ${t}_view_rev_${suffix} AFTER ${event} ON ${t} FOR EACH ROW BEGIN UPDATE kid_profiles SET view_rev = view_rev + 1; END`,
        )
        .execute(db);
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const all = ["kid_profiles", ...BY_PROFILE, ...BY_DEVICE, ...EVERYONE];
  if (isPostgres(db)) {
    for (const t of all) await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${t}_view_rev`)} ON ${sql.table(t)}`.execute(db);
    for (const f of ["kp_view_rev_self", "kp_view_rev_by_profile", "kp_view_rev_by_device", "kp_view_rev_everyone"]) {
      await sql`DROP FUNCTION IF EXISTS ${sql.raw(f)}()`.execute(db);
    }
  } else {
    await sql`DROP TRIGGER IF EXISTS kid_profiles_view_rev`.execute(db);
    for (const t of all.slice(1)) for (const s of ["i", "u", "d"]) await sql.raw(`DROP TRIGGER IF EXISTS ${t}_view_rev_${s}`).execute(db);
  }
  await db.schema.alterTable("kid_profiles").dropColumn("view_rev").execute();
}
