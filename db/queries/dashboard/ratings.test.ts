import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { listPendingRatings, markRatingsShown } from "./ratings";
import { NOW, useDemoFamily } from "./dashboard.testing";

describe.each(DIALECTS)("dashboard rating queries on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("lists pending ratings until the popup is closed", async () => {
    const { t, mia, leo } = f;
    const before = await listPendingRatings(t.db, leo.deviceId);
    expect(before.length).toBeGreaterThan(0);
    await markRatingsShown(t.db, leo.deviceId, new Date(NOW.getTime() + 1000));
    expect(await listPendingRatings(t.db, leo.deviceId)).toHaveLength(0);
    await markRatingsShown(t.db, leo.deviceId, new Date(NOW.getTime() + 2000));
    expect(await listPendingRatings(t.db, leo.deviceId)).toHaveLength(0);
    expect((await listPendingRatings(t.db, mia.deviceId)).length).toBeGreaterThan(0);
  });

  it("an app a parent rated for the kid is no longer waiting for a rating; the others still are", async () => {
    const { t, mia } = f;
    const before = await listPendingRatings(t.db, mia.deviceId, 50);
    const rated = before[0];
    const parent = await t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", mia.profileId).executeTakeFirstOrThrow();
    const ts = NOW.toISOString();
    await t.db
      .insertInto("parent_ratings")
      .values({
        id: "r1",
        parent_id: parent.parent_id,
        profile_id: mia.profileId,
        package_name: rated.package_name,
        is_easy_to_stop: null,
        review: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const after = await listPendingRatings(t.db, mia.deviceId, 50);
    expect(after.map((a) => a.package_name)).toEqual(before.slice(1).map((a) => a.package_name));
  });
});
