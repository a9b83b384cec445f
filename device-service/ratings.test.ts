import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { getKidRatings } from "../db/queries/ratings";
import { rateApp } from "./simulator/ratings";
import { startHarness, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

/** Issue 12: the kid rates an app in the kids app (`kid_rating` over the device protocol); the parent's pages read it. */
describe.each(DIALECTS)("kid ratings from the kids app on %s", (dialect) => {
  let h: Harness;
  /** An app on Mia's phone no demo kid has rated. */
  let pkg: string;
  beforeAll(async () => {
    h = await startHarness({ dialect });
    const mia = await h.kid(MIA);
    const rated = new Set((await h.tdb.db.selectFrom("kid_ratings").select("package_name").execute()).map((r) => r.package_name));
    const apps = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .orderBy("package_name", "desc")
      .execute();
    pkg = apps.map((a) => a.package_name).find((p) => !rated.has(p))!;
    expect(pkg).toBeDefined();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const rows = async (profileId: string, packageName = pkg) =>
    h.tdb.db.selectFrom("kid_ratings").selectAll().where("profile_id", "=", profileId).where("package_name", "=", packageName).execute();

  it("the demo family has kid ratings with reviews, shown through the ratings query", async () => {
    const seeded = await h.tdb.db
      .selectFrom("kid_ratings")
      .innerJoin("kid_profiles as k", "k.id", "kid_ratings.profile_id")
      .select(["k.name", "kid_ratings.package_name", "kid_ratings.review"])
      .execute();
    expect(new Set(seeded.map((r) => r.name))).toEqual(new Set(["Mia", "Leo"]));
    expect(seeded.filter((r) => r.review).length).toBeGreaterThan(3);
    const one = seeded.find((r) => r.review)!;
    const shown = await getKidRatings(h.tdb.db, one.package_name);
    expect(shown.totalKidsRating).toBeGreaterThan(0);
    expect(shown.lastFiveReviews.map((r) => r.review)).toContain(one.review);
  });

  it("a rating is stored once per message id, and a later one from the same kid replaces the earlier", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const id = await rateApp(phone, pkg, 4, { review: "  Good for maths  " });
    expect(await rows(mia.profileId)).toMatchObject([{ rating: 4, review: "Good for maths" }]);
    // The same frame again (a retry after a drop): acknowledged, applied once.
    await rateApp(phone, pkg, 4, { review: "Good for maths", id });
    expect(await rows(mia.profileId)).toHaveLength(1);
    // A new rating of the same app: replaces the kid's earlier one (stars and review).
    await rateApp(phone, pkg, 2);
    expect(await rows(mia.profileId)).toMatchObject([{ rating: 2, review: null }]);
    // Leo rating the same app is his own rating beside Mia's.
    const leo = await h.kid(LEO);
    await rateApp(await h.phone(LEO), pkg, 5, { review: "Fun" });
    expect(await rows(leo.profileId)).toHaveLength(1);
    const shown = await getKidRatings(h.tdb.db, pkg);
    expect(shown).toMatchObject({ totalKidsRating: 2, avgKidsRating: 3.5, positive: 1, natural: 1, negative: 0 });
    expect(shown.lastFiveReviews.map((r) => [r.name, r.kidsRating, r.review])).toEqual([
      ["Leo", 5, "Fun"],
      ["Mia", 2, null],
    ]);
  });

  it("stars outside 1–5 and over-long reviews are refused and nothing is stored", async () => {
    const mia = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const before = await rows(mia.profileId, "org.khanacademy.android");
    await expect(rateApp(phone, "org.khanacademy.android", 0)).rejects.toThrow();
    await expect(rateApp(phone, "org.khanacademy.android", 6)).rejects.toThrow();
    await expect(rateApp(phone, "org.khanacademy.android", 3, { review: "x".repeat(1001) })).rejects.toThrow();
    expect(await rows(mia.profileId, "org.khanacademy.android")).toEqual(before);
  });
});
