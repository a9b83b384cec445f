import type { DB } from "../index";
import { newId } from "../../core/ids.server";
import { KIDS_APP_PACKAGE } from "./catalog";

/** What the demo kids wrote in the kids app, in order: stars and review (null: stars only). */
const DEMO_KID_RATINGS: [number, string | null][] = [
  [5, "I love it!"],
  [4, "Fun, and I learned new words."],
  [3, null],
  [5, "My favourite."],
  [2, "Too many levels are locked."],
  [4, null],
];

/**
 * Kid ratings for the demo family (spec 2 §3 Kids rating), as the kids app sends them (`kid_rating`,
 * device-service/ratings.ts): each demo kid rated the first apps on their phone (by package name, the kids app
 * aside), one rating per app, spread over the last days so the Info tab shows relative times.
 */
export async function seedDemoKidRatings(db: DB, parentId: string, now: Date): Promise<void> {
  const kids = await db.selectFrom("kid_profiles").select("id").where("parent_id", "=", parentId).orderBy("name").execute();
  for (const [k, kid] of kids.entries()) {
    const apps = await db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("profile_id", "=", kid.id)
      .where("package_name", "!=", KIDS_APP_PACKAGE)
      .orderBy("package_name")
      .limit(DEMO_KID_RATINGS.length - k)
      .execute();
    if (!apps.length) continue;
    await db
      .insertInto("kid_ratings")
      .values(
        apps.map((a, i) => {
          const [rating, review] = DEMO_KID_RATINGS[(i + k) % DEMO_KID_RATINGS.length]!;
          return {
            id: newId(),
            profile_id: kid.id,
            package_name: a.package_name,
            rating,
            review,
            created_at: new Date(now.getTime() - (i * 26 + k * 7 + 2) * 3_600_000).toISOString(),
          };
        }),
      )
      .execute();
  }
}
