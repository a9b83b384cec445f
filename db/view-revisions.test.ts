import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BUMPED_BY_WRITERS, bumpKidsOfPhones, USAGE_WRITERS, VIEW_REV_ROWS, VIEW_REV_TABLES } from "./view-revisions";
import { seedDemo } from "./seed/index";
import { createParent } from "./queries/parents";
import { createTestDb, DIALECTS, type TestDb } from "./index.testing";

/**
 * kid_profiles.view_rev must move on every insert, update and delete in every table the dashboard reads, for
 * the kid the row belongs to and for no other kid (catalogue tables: for every kid). The page cache relies on it.
 */
const KEY_OF: Record<string, "profile_id" | "device_id" | "everyone" | "self"> = {
  kid_profiles: "self",
  devices: "profile_id",
  profile_apps: "profile_id",
  category_limits: "profile_id",
  notifications: "profile_id",
  device_status: "device_id",
  app_usage_hourly: "device_id",
  app_usage_daily: "device_id",
  global_settings: "device_id",
  location_settings: "device_id",
  device_locations: "device_id",
  device_policies: "device_id",
  parent_ratings: "profile_id",
  bonus_grants: "profile_id",
  store_categories: "everyone",
  catalog_apps: "everyone",
  app_requests: "profile_id",
  kid_time_rules: "profile_id",
};

describe.each(DIALECTS)("dashboard view revisions on %s", (dialect) => {
  let t: TestDb;
  let mia: { profileId: string; deviceId: string };
  let leo: { profileId: string; deviceId: string };
  const revs = async () => {
    const rows = await t.db
      .selectFrom("kid_profiles")
      .select(["id", "view_rev"])
      .where("id", "in", [mia.profileId, leo.profileId])
      .execute();
    const of = (id: string) => Number(rows.find((r) => r.id === id)!.view_rev);
    return { mia: of(mia.profileId), leo: of(leo.profileId) };
  };
  /** Runs a write and says whose revision moved. */
  const moved = async (write: () => Promise<unknown>) => {
    const before = await revs();
    await write();
    const after = await revs();
    return { mia: after.mia > before.mia, leo: after.leo > before.leo };
  };

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, new Date("2026-11-21T18:30:00Z"));
    const rows = await t.db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "kid_profiles.name"])
      .execute();
    const by = (n: string) => rows.find((r) => r.name === n)!;
    mia = { profileId: by("Mia").profile_id, deviceId: by("Mia").id };
    leo = { profileId: by("Leo").profile_id, deviceId: by("Leo").id };
    // Rows the seed may not have, so every table has one of Mia's to play with.
    const now = new Date().toISOString();
    await t.db
      .insertInto("global_settings")
      .values({ device_id: mia.deviceId, key: "view-rev-test", value: "1", updated_at: now })
      .execute();
    const hasLoc = await t.db.selectFrom("location_settings").select("device_id").where("device_id", "=", mia.deviceId).executeTakeFirst();
    if (!hasLoc) await t.db.insertInto("location_settings").values({ device_id: mia.deviceId, updated_at: now }).execute();
    const hasPolicy = await t.db.selectFrom("device_policies").select("device_id").where("device_id", "=", mia.deviceId).executeTakeFirst();
    const miaParent = await t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", mia.profileId).executeTakeFirstOrThrow();
    await t.db
      .insertInto("parent_ratings")
      .values({
        id: "view-rev-rating",
        parent_id: miaParent.parent_id,
        profile_id: mia.profileId,
        package_name: "com.whatsapp",
        is_easy_to_stop: null,
        review: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db
      .insertInto("app_requests")
      .values({
        id: "view-rev-request",
        profile_id: mia.profileId,
        device_id: mia.deviceId,
        package_name: "com.duolingo",
        request_type: "App Install",
        remarks: null,
        message_id: null,
        answered_by: null,
        answered_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await t.db
      .insertInto("kid_time_rules")
      .values({
        profile_id: mia.profileId,
        scope: "phone",
        target: "",
        weekday_minutes: "[60,60,60,60,60,120,120]",
        session_minutes: null,
        break_minutes: null,
        always_allowed: 0,
        updated_at: now,
      })
      .execute();
    await t.db
      .insertInto("bonus_grants")
      .values({
        id: "view-rev-bonus",
        profile_id: mia.profileId,
        scope: "phone",
        target: "",
        day: now.slice(0, 10),
        minutes: 30,
        granted_by: null,
        created_at: now,
      })
      .execute();
    if (!hasPolicy)
      await t.db
        .insertInto("device_policies")
        .values({ device_id: mia.deviceId, version: 1, document: "{}", command_id: null, created_at: now, acknowledged_at: null })
        .execute();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("covers exactly the tables the page cache lists", () => {
    expect(Object.keys(KEY_OF).sort()).toEqual([...VIEW_REV_TABLES].sort());
  });

  const bumpedByWriters = (table: string) => (BUMPED_BY_WRITERS as readonly string[]).includes(table);

  it.each(Object.entries(KEY_OF).filter(([t, k]) => (k === "profile_id" || k === "device_id") && !bumpedByWriters(t)))(
    "%s: insert, update and delete move the owning kid's revision only",
    async (table, key) => {
      const value = key === "profile_id" ? mia.profileId : mia.deviceId;
      const row = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ${value}`.execute(t.db))
        .rows[0];
      expect(row, `the fixture needs one of Mia's rows in ${table}`).toBeDefined();
      expect(
        await moved(() =>
          sql`UPDATE ${sql.table(table)} SET ${sql.ref(key)} = ${sql.ref(key)} WHERE ${sql.ref(key)} = ${value}`.execute(t.db),
        ),
      ).toEqual({ mia: true, leo: false });
      if (table === "devices") {
        // Moving a phone to another kid changes both dashboards; put it back afterwards.
        expect(
          await moved(() => t.db.updateTable("devices").set({ profile_id: leo.profileId }).where("id", "=", mia.deviceId).execute()),
        ).toEqual({ mia: true, leo: true });
        await t.db.updateTable("devices").set({ profile_id: mia.profileId }).where("id", "=", mia.deviceId).execute();
        return; // deleting the phone would cascade through the other tables' fixtures
      }
      const cols = Object.keys(row);
      const where = sql.join(
        cols.filter((c) => row[c] !== null).map((c) => sql`${sql.ref(c)} = ${row[c] as string}`),
        sql` AND `,
      );
      expect(await moved(() => sql`DELETE FROM ${sql.table(table)} WHERE ${where}`.execute(t.db))).toEqual({ mia: true, leo: false });
      expect(
        await moved(() =>
          sql`INSERT INTO ${sql.table(table)} (${sql.join(cols.map((c) => sql.ref(c)))}) VALUES (${sql.join(cols.map((c) => sql`${row[c] as string}`))})`.execute(
            t.db,
          ),
        ),
      ).toEqual({ mia: true, leo: false });
    },
  );

  it("kid_profiles: any change to the kid moves its revision once; writing the revision itself does not double it", async () => {
    const before = await revs();
    await t.db.updateTable("kid_profiles").set({ name: "Mia" }).where("id", "=", mia.profileId).execute();
    const after = await revs();
    expect(after.mia).toBe(before.mia + 1);
    expect(after.leo).toBe(before.leo);
    await t.db
      .updateTable("kid_profiles")
      .set((eb) => ({ view_rev: eb("view_rev", "+", 1) }))
      .where("id", "=", mia.profileId)
      .execute();
    expect((await revs()).mia).toBe(after.mia + 1);
  });

  it.each(Object.entries(KEY_OF).filter(([, k]) => k === "everyone"))(
    "%s (shared catalogue): a change moves every kid's revision",
    async (table) => {
      const row = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(t.db)).rows[0];
      const [col] = Object.keys(row);
      expect(
        await moved(() =>
          sql`UPDATE ${sql.table(table)} SET ${sql.ref(col)} = ${sql.ref(col)} WHERE ${sql.ref(col)} = ${row[col] as string}`.execute(t.db),
        ),
      ).toEqual({ mia: true, leo: true });
    },
  );

  it.each([...BUMPED_BY_WRITERS])(
    "%s has no trigger: a bare write moves nobody, its writers bump (bumpKidsOfPhones moves only the phone's kid)",
    async (table) => {
      const row = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE device_id = ${mia.deviceId}`.execute(t.db))
        .rows[0];
      expect(row, `the fixture needs one of Mia's rows in ${table}`).toBeDefined();
      expect(
        await moved(() => sql`UPDATE ${sql.table(table)} SET minutes = minutes WHERE device_id = ${mia.deviceId}`.execute(t.db)),
      ).toEqual({ mia: false, leo: false });
      expect(await moved(() => bumpKidsOfPhones(t.db, [mia.deviceId, mia.deviceId]))).toEqual({ mia: true, leo: false });
    },
  );

  it("device_commands: a RING or STOP_SOUND row moves its phone's kid on insert, status change and delete; a Lock or a policy push moves nobody", async () => {
    expect(VIEW_REV_ROWS.device_commands.values).toEqual(["RING", "STOP_SOUND"]);
    const command = (id: string, type: string) => ({
      id,
      device_id: mia.deviceId,
      type,
      payload: "{}",
      status: "queued" as const,
      policy_version: null,
      issued_by: null,
      error: null,
      result: null,
      created_at: new Date().toISOString(),
      sent_at: null,
      completed_at: null,
      expires_at: null,
    });
    for (const type of ["RING", "STOP_SOUND"]) {
      const id = `view-rev-${type}`;
      expect(await moved(() => t.db.insertInto("device_commands").values(command(id, type)).execute()), `${type} insert`).toEqual({
        mia: true,
        leo: false,
      });
      expect(
        await moved(() => t.db.updateTable("device_commands").set({ status: "acknowledged" }).where("id", "=", id).execute()),
        `${type} update`,
      ).toEqual({ mia: true, leo: false });
      expect(await moved(() => t.db.deleteFrom("device_commands").where("id", "=", id).execute()), `${type} delete`).toEqual({
        mia: true,
        leo: false,
      });
    }
    for (const type of ["LOCK", "APPLY_POLICY"]) {
      const id = `view-rev-${type}`;
      expect(await moved(() => t.db.insertInto("device_commands").values(command(id, type)).execute()), `${type} insert`).toEqual({
        mia: false,
        leo: false,
      });
      expect(
        await moved(() => t.db.updateTable("device_commands").set({ status: "acknowledged" }).where("id", "=", id).execute()),
        `${type} update`,
      ).toEqual({ mia: false, leo: false });
      expect(await moved(() => t.db.deleteFrom("device_commands").where("id", "=", id).execute()), `${type} delete`).toEqual({
        mia: false,
        leo: false,
      });
    }
  });

  it("parents: a name or e-mail change moves the kids whose pages can name them (owned, or of a delegation they accepted); other columns move none", async () => {
    const owner = await t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", mia.profileId).executeTakeFirstOrThrow();
    const delegate = await createParent(t.db, { email: "view-rev-delegate@example.test", name: "Sam", passwordHash: null });
    const stranger = await createParent(t.db, { email: "view-rev-stranger@example.test", name: "Kim", passwordHash: null });
    const now = new Date().toISOString();
    await t.db
      .insertInto("delegations")
      .values({
        id: "view-rev-delegation",
        owner_parent_id: owner.parent_id,
        delegate_email: "view-rev-delegate@example.test",
        delegate_name: "Sam",
        status: "Revoked",
        created_at: now,
        updated_at: now,
        responded_by: delegate.id,
        responded_at: now,
        revoked_at: now,
      })
      .execute();
    await t.db.insertInto("delegation_kids").values({ delegation_id: "view-rev-delegation", profile_id: mia.profileId }).execute();
    const rename = (id: string, set: { name?: string; email?: string; time_zone?: string }) => () =>
      t.db.updateTable("parents").set(set).where("id", "=", id).execute();
    expect(await moved(rename(owner.parent_id, { name: "Alex Renamed" }))).toEqual({ mia: true, leo: true });
    expect(await moved(rename(owner.parent_id, { email: "alex-renamed@example.test" }))).toEqual({ mia: true, leo: true });
    expect(await moved(rename(owner.parent_id, { time_zone: "Europe/Berlin" }))).toEqual({ mia: false, leo: false });
    expect(await moved(rename(owner.parent_id, { name: "Alex Renamed" }))).toEqual({ mia: false, leo: false });
    expect(await moved(rename(delegate.id, { name: "Samantha" }))).toEqual({ mia: true, leo: false });
    expect(await moved(rename(stranger.id, { name: "Kimberly" }))).toEqual({ mia: false, leo: false });
  });

  // Last: it deletes Mia.
  it("deleting a kid cascades through its phone and data without tripping the triggers; the other kid's revision stays", async () => {
    const before = await revs();
    await t.db.deleteFrom("kid_profiles").where("id", "=", mia.profileId).execute();
    expect(await t.db.selectFrom("devices").select("id").where("id", "=", mia.deviceId).executeTakeFirst()).toBeUndefined();
    expect(
      await t.db.selectFrom("app_usage_daily").select("device_id").where("device_id", "=", mia.deviceId).executeTakeFirst(),
    ).toBeUndefined();
    const leoAfter = await t.db.selectFrom("kid_profiles").select("view_rev").where("id", "=", leo.profileId).executeTakeFirstOrThrow();
    expect(Number(leoAfter.view_rev)).toBe(before.leo);
  });
});

/**
 * The usage tables have no trigger, so every file that writes them must be a known writer that bumps the
 * revision (USAGE_WRITERS; device-service/usage-view-rev.test.ts and jobs/reports/reports.testing.test.ts check that
 * they do). A new writer fails here until it is listed, and so until someone has made it bump.
 */
describe("writers of the usage tables", () => {
  const ROOT = path.resolve(__dirname, "..");
  const SCANNED = ["app", "core", "db", "device-service", "jobs", "server"];
  const CALL =
    /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto|insertChunked)\(\s*(?:\w+,\s*)?["'`](?:app_usage_hourly|app_usage_daily)\b/;
  const RAW = /\b(?:INSERT\s+(?:OR\s+\w+\s+)?INTO|UPDATE|DELETE\s+FROM)\s+(?:app_usage_hourly|app_usage_daily)\b/i;
  const files = (p: string): string[] =>
    statSync(p).isDirectory()
      ? readdirSync(p).flatMap((f) => (f === "node_modules" || f === "migrations" ? [] : files(path.join(p, f))))
      : [p];

  it("are exactly the listed ones (tests and migrations aside)", () => {
    const writers = SCANNED.flatMap((d) => files(path.join(ROOT, d)))
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => {
        const text = readFileSync(f, "utf8");
        return CALL.test(text) || RAW.test(text);
      })
      .map((f) => path.relative(ROOT, f).split(path.sep).join("/"))
      .sort();
    expect(writers).toEqual([...USAGE_WRITERS].sort());
  });

  it("the scan recognises every form of write", () => {
    for (const text of [
      'trx.insertInto("app_usage_hourly")',
      "db.updateTable('app_usage_daily')",
      'insertChunked(db, "app_usage_hourly", rows)',
      "DELETE FROM app_usage_daily WHERE",
      "insert or replace into app_usage_hourly values",
    ]) {
      expect(CALL.test(text) || RAW.test(text), text).toBe(true);
    }
    expect(CALL.test('selectFrom("app_usage_hourly")') || RAW.test("SELECT minutes FROM app_usage_hourly")).toBe(false);
  });
});
