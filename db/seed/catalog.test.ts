import { describe, expect, it } from "vitest";
import { KIDS_APP_PACKAGE, STORE_CATEGORIES } from "./catalog";
import { CATALOG_APPS, DEMO_CATALOG_APPS } from "./catalog-all";

/** Issue 13 item 2: the curated catalogue — at least 300 apps, every one of the store's 56 categories stocked. */
const CONTENT_RATINGS = new Set([
  "Everyone",
  "Everyone 10+",
  "Teen",
  "Mature 17+",
  "Adults only 18+",
  "Rated for 3+",
  "Rated for 7+",
  "Rated for 12+",
  "Rated for 16+",
  "Rated for 18+",
]);
const EXPERT = new Set(["EXPERT_RECOMMENDATION", "PARENTAL_SUPERVISION", "16+"]);

describe("seed catalogue", () => {
  it("holds at least 300 apps", () => {
    expect(CATALOG_APPS.length).toBeGreaterThanOrEqual(300);
  });

  it("stocks every one of the store's 56 categories", () => {
    expect(STORE_CATEGORIES).toHaveLength(56);
    const empty = STORE_CATEGORIES.filter((c) => !CATALOG_APPS.some((a) => a.genre_id === c.id)).map((c) => c.id);
    expect(empty, `categories without apps: ${empty.join(", ")}`).toEqual([]);
  });

  it("lists each package once, never the kids app itself", () => {
    const seen = new Map<string, number>();
    for (const a of CATALOG_APPS) seen.set(a.package_name, (seen.get(a.package_name) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([p]) => p)).toEqual([]);
    expect(seen.has(KIDS_APP_PACKAGE)).toBe(false);
  });

  it("keeps the demo family's pool (the first apps) so the demo kids' installed apps stay the same", () => {
    expect(CATALOG_APPS.slice(0, DEMO_CATALOG_APPS.length)).toEqual(DEMO_CATALOG_APPS);
    expect(DEMO_CATALOG_APPS).toHaveLength(100);
  });

  it("gives every app valid listing fields", () => {
    const names = new Map(STORE_CATEGORIES.map((c) => [c.id, c.name]));
    const bad: string[] = [];
    for (const a of CATALOG_APPS) {
      const problems = [
        !/^[a-zA-Z][\w]*(\.[a-zA-Z_][\w]*)+$/.test(a.package_name) && "package name",
        a.title.trim() === "" && "title",
        names.get(a.genre_id) !== a.genre && "genre",
        a.developer.trim() === "" && "developer",
        !(a.price >= 0 && a.price < 100) && "price",
        !/^[0-5]\.\d$/.test(a.score_text) && "score",
        !(Number.isInteger(a.reviews) && a.reviews > 0) && "reviews",
        !CONTENT_RATINGS.has(a.content_rating) && "content rating",
        !/^(\d+(\.\d+)* and up|Varies with device)$/.test(a.android_version_text) && "android version",
        a.description_html.replace(/<[^>]+>/g, "").trim().length < 20 && "description",
        (a.expert_rating === null) !== (a.expert_rating_comment === null) && "expert comment",
        a.expert_rating !== null && !EXPERT.has(a.expert_rating) && "expert rating",
        ![0, 3, 6, 9, 13, 16].includes(a.min_age) && "min age",
        a.expert_rating === "16+" && a.min_age < 16 && "16+ expert rating below 16",
        a.url !== `https://play.google.com/store/apps/details?id=${a.package_name}` && "url",
        a.privacy_policy !== null && !/^https:\/\//.test(a.privacy_policy) && "privacy policy",
      ].filter(Boolean);
      if (problems.length) bad.push(`${a.package_name}: ${problems.join(", ")}`);
    }
    expect(bad).toEqual([]);
  });
});
