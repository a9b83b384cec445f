import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../db/index.testing";
import { addUsage, makeFamily } from "./reports.testing";

/** addUsage writes the usage tables, which have no view-revision trigger: it moves the kid's revision itself. */
describe("report fixtures: addUsage", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("moves the kid's dashboard revision", async () => {
    const fam = await makeFamily(t.db, { name: "Ava", kind: "Weekly", tz: "UTC" });
    const rev = async () =>
      Number((await t.db.selectFrom("kid_profiles").select("view_rev").where("id", "=", fam.profileId).executeTakeFirstOrThrow()).view_rev);
    const before = await rev();
    await addUsage(t.db, fam.deviceId, [["2026-11-20T10:00:00Z", "com.mojang.minecraftpe", 5]]);
    expect(await rev()).toBe(before + 1);
  });
});
