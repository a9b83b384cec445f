import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { seedDemo } from "../db/seed/index";
import { createLocalBus } from "./bus";
import { createIngestBatcher } from "./socket/ingest-batch";
import { ingestUsage, type DeviceRef } from "./socket/telemetry";

/**
 * The usage tables have no view-revision trigger (migration 2026-11-25T00-usage-writers-bump): their writers move
 * the kids' revisions themselves (db/view-revisions.ts). Both device-service writers, on both dialects: the
 * kid whose phone reported moves, once per transaction, and no other kid does.
 */
describe.each(DIALECTS)("usage writers move the dashboard revision on %s", (dialect) => {
  let t: TestDb;
  let mia: DeviceRef;
  let leo: DeviceRef;
  const revs = async () => {
    const rows = await t.db
      .selectFrom("kid_profiles")
      .select(["id", "view_rev"])
      .where("id", "in", [mia.profile_id, leo.profile_id])
      .execute();
    const of = (id: string) => Number(rows.find((r) => r.id === id)!.view_rev);
    return { mia: of(mia.profile_id), leo: of(leo.profile_id) };
  };
  const moves = async (write: () => Promise<unknown>) => {
    const before = await revs();
    await write();
    const after = await revs();
    return { mia: after.mia - before.mia, leo: after.leo - before.leo };
  };
  // Two hours ahead (inside the day of clock skew accepted): an hour the seed has not filled.
  const hour = () => new Date(Date.now() + 2 * 3_600_000).toISOString();
  const batcher = () => createIngestBatcher({ db: t.db, bus: createLocalBus(), log: () => {} });

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, new Date());
    const rows = await t.db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "devices.serial_number", "devices.created_at", "kid_profiles.name"])
      .execute();
    const ref = (name: string): DeviceRef => {
      const r = rows.find((x) => x.name === name)!;
      return { id: r.id, profile_id: r.profile_id, serial_number: r.serial_number, enrolled_at: r.created_at };
    };
    mia = ref("Mia");
    leo = ref("Leo");
  }, 60_000);
  afterAll(async () => {
    await t?.destroy();
  });

  it("an upload on its own (ingestUsage): the phone's kid moves once, the other kid stays", async () => {
    expect(
      await moves(() =>
        ingestUsage(
          t.db,
          mia.id,
          [
            { packageName: "com.viewrev.a", hour: hour(), minutes: 1 },
            { packageName: "com.viewrev.b", hour: hour(), minutes: 1 },
          ],
          { enrolledAt: mia.enrolled_at },
        ),
      ),
    ).toEqual({ mia: 1, leo: 0 });
  });

  it("a group commit: each kid with a phone in the batch moves once, however many rows; a batch of one kid leaves the other", async () => {
    const b = batcher();
    const buckets = (m: number) =>
      ["com.viewrev.a", "com.viewrev.b", "com.viewrev.c"].map((packageName) => ({ packageName, hour: hour(), minutes: m }));
    expect(await moves(() => Promise.all([b.usage(mia, "vr-1", buckets(2)), b.usage(leo, "vr-2", buckets(2))]))).toEqual({
      mia: 1,
      leo: 1,
    });
    expect(await moves(() => b.usage(leo, "vr-3", buckets(3)))).toEqual({ mia: 0, leo: 1 });
    await b.close();
  });

  it("a refused upload (over 60 minutes in an hour) stores nothing and moves nobody", async () => {
    const b = batcher();
    const before = await revs();
    await expect(b.usage(mia, "vr-4", [{ packageName: "com.viewrev.z", hour: hour(), minutes: 59 }])).rejects.toThrow(/at most 60 minutes/);
    await b.close();
    expect(await revs()).toEqual(before);
    expect(
      await t.db
        .selectFrom("app_usage_hourly")
        .select("minutes")
        .where("device_id", "=", mia.id)
        .where("package_name", "=", "com.viewrev.z")
        .executeTakeFirst(),
    ).toBeUndefined();
  });
});
