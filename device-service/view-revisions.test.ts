import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../db/seed/index";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { ingestUsage } from "./socket/telemetry";

// The page cache relies on kid_profiles.view_rev (db/view-revisions.test.ts checks every table's triggers);
// here: the device service's usage upload, an hourly upsert plus the daily rollup, moves it for that kid only.
describe.each(DIALECTS)("a usage upload moves the dashboard's view revision on %s", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, new Date("2026-11-21T18:30:00Z"));
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a usage upload (hourly upsert plus daily rollup) moves the kid's revision", async () => {
    const rows = await t.db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "kid_profiles.name"])
      .execute();
    const by = (n: string) => rows.find((r) => r.name === n)!;
    const revs = async () => {
      const kids = await t.db.selectFrom("kid_profiles").select(["id", "view_rev"]).execute();
      const of = (name: string) => Number(kids.find((k) => k.id === by(name).profile_id)!.view_rev);
      return { mia: of("Mia"), leo: of("Leo") };
    };
    const before = await revs();
    await ingestUsage(t.db, by("Mia").id, [{ packageName: "com.whatsapp", hour: "2026-11-21T17:10:00Z", minutes: 7 }]);
    const after = await revs();
    expect({ mia: after.mia > before.mia, leo: after.leo > before.leo }).toEqual({ mia: true, leo: false });
  });
});
