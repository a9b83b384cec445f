import { describe, expect, it } from "vitest";
import { DIALECTS } from "../index.testing";
import { getAppDetail, getAppUsageChart, listKidApps } from "./apps";
import { getCategoryDetail } from "./categories";
import { NOW, useDemoFamily } from "./dashboard/dashboard.testing";
import { getKidRatings, getParentRatings } from "./ratings";

const WEEK = { filter: "week" as const, from: "2026-11-16", to: "2026-11-23", days: 7 };
const DAY = { filter: "day" as const, from: "2026-11-21", to: "2026-11-22", days: 1 };

describe.each(DIALECTS)("app and category queries on %s", (dialect) => {
  const f = useDemoFamily(dialect);
  const usedApp = async () =>
    f.t.db
      .selectFrom("app_usage_daily as u")
      .innerJoin("catalog_apps as c", "c.package_name", "u.package_name")
      .innerJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
      .select(["u.package_name", "pa.play_store_category"])
      .where("u.device_id", "=", f.mia.deviceId)
      .where("u.day", "=", "2026-11-21")
      .orderBy("u.minutes", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();

  it("an app's detail: store listing and the phone's state; unknown on this phone and in the store → null", async () => {
    const { package_name } = await usedApp();
    const d = await getAppDetail(f.t.db, f.mia.deviceId, package_name);
    expect(d).toMatchObject({ packageName: package_name, appExist: true, isAppInstalled: true });
    expect(d?.catalog?.title).toBeTruthy();
    expect(await getAppDetail(f.t.db, f.mia.deviceId, "org.school.homework2")).toBeNull(); // Leo's own app, not Mia's
    expect(await getAppDetail(f.t.db, f.leo.deviceId, "org.school.homework2")).toMatchObject({
      appExist: true,
      catalog: null,
      category: "Others",
    });
  });

  it("an app's usage chart sums to the daily rollup (Day by hour, Week by day)", async () => {
    const { package_name } = await usedApp();
    const day = await getAppUsageChart(f.t.db, f.mia.deviceId, package_name, DAY);
    const stored = await f.t.db
      .selectFrom("app_usage_daily")
      .select("minutes")
      .where("device_id", "=", f.mia.deviceId)
      .where("package_name", "=", package_name)
      .where("day", "=", "2026-11-21")
      .executeTakeFirstOrThrow();
    expect(day.total).toBe(stored.minutes);
    expect(day.chart.rows).toHaveLength(24);
    const week = await getAppUsageChart(f.t.db, f.mia.deviceId, package_name, WEEK);
    expect(week.chart.rows).toHaveLength(7);
    expect(week.total).toBeGreaterThanOrEqual(day.total);
  });

  it("the kid's apps: installed ones only, searchable and filterable by category", async () => {
    const all = await listKidApps(f.t.db, f.mia.deviceId);
    expect(all.length).toBeGreaterThan(5);
    const one = all.find((a) => a.category !== "Others")!;
    expect((await listKidApps(f.t.db, f.mia.deviceId, { q: one.title.slice(0, 4).toUpperCase() })).map((a) => a.packageName)).toContain(
      one.packageName,
    );
    const inCat = await listKidApps(f.t.db, f.mia.deviceId, { category: one.category });
    expect(inCat.every((a) => a.category === one.category)).toBe(true);
    expect(await listKidApps(f.t.db, f.mia.deviceId, { q: "no such app anywhere" })).toEqual([]);
  });

  it("a category's detail: limit, use, most used apps and the stacked chart; unknown category → null", async () => {
    const { play_store_category } = await usedApp();
    const c = await getCategoryDetail(f.t.db, f.mia.profileId, f.mia.deviceId, play_store_category, WEEK);
    expect(c?.apps.length).toBeGreaterThan(0);
    expect(c?.usedTime).toBe(c?.apps.reduce((s, a) => s + a.timeInMinute, 0));
    const charted = c!.chart.rows.reduce((s, r) => s + Object.values(r.values).reduce((a, b) => a + b, 0), 0);
    expect(charted).toBe(c?.usedTime);
    expect(await getCategoryDetail(f.t.db, f.mia.profileId, f.mia.deviceId, "NOT_A_CATEGORY", WEEK)).toBeNull();
  });

  it("ratings: kid brackets and parent averages with the last five reviews", async () => {
    const { package_name } = await usedApp();
    const parent = await f.t.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", f.mia.profileId).executeTakeFirstOrThrow();
    const ts = NOW.toISOString();
    // The demo seed's own kid ratings aside: this table of cases is about these four.
    await f.t.db.deleteFrom("kid_ratings").where("package_name", "=", package_name).execute();
    await f.t.db
      .insertInto("kid_ratings")
      .values(
        [5, 3, 2, 1].map((rating, i) => ({
          id: `k${i}`,
          profile_id: i % 2 ? f.leo.profileId : f.mia.profileId,
          package_name,
          rating,
          review: `review ${i}`,
          created_at: ts,
        })),
      )
      .execute();
    await f.t.db
      .insertInto("parent_ratings")
      .values({
        id: "p1",
        parent_id: parent.parent_id,
        profile_id: f.mia.profileId,
        package_name,
        is_educational: 4,
        is_positive: 2,
        is_suitable_content: 5,
        is_easy_to_understand: 3,
        is_recommend: 1,
        is_easy_to_stop: null,
        review: "Good",
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const kids = await getKidRatings(f.t.db, package_name);
    expect(kids).toMatchObject({ avgKidsRating: 2.8, totalKidsRating: 4, positive: 2, natural: 1, negative: 1, positivePercent: 50 });
    expect(kids.lastFiveReviews).toHaveLength(4);
    const parents = await getParentRatings(f.t.db, package_name);
    expect(parents).toMatchObject({ parentsRatingAvg: 3.5, totalParentsRating: 1, educational: 4, upVoting: 1, downVoting: 0 });
    expect(parents.lastFiveReviews[0]).toMatchObject({ review: "Good", kidName: "Mia", isRecommend: true });
    expect(await getParentRatings(f.t.db, "org.nobody.rated")).toMatchObject({
      parentsRatingAvg: null,
      totalParentsRating: 0,
      lastFiveReviews: [],
    });
  });
});
