import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../index.testing";
import { useDemoFamily } from "../dashboard/dashboard.testing";
import { ftsTokens, searchCatalog } from "./catalog";

describe("catalogue search tokens", () => {
  it.each([
    ["Pokémon", ["pokemon"]],
    ["  khan   ACADEMY ", ["khan", "academy"]],
    ['dr"op; table--', ["dr", "op", "table"]],
    ["™!", []],
  ])("%j → %j", (text, want) => expect(ftsTokens(text)).toEqual(want));
});

describe.each(DIALECTS)("catalogue search on %s", (dialect) => {
  const f = useDemoFamily(dialect);
  const titles = async (filter: Parameters<typeof searchCatalog>[2]) =>
    (await searchCatalog(f.t.db, f.mia.deviceId, filter)).map((a) => a.title);

  it("ranks full-text matches: title before description, prefixes while typing, accents ignored", async () => {
    expect((await titles({ kind: "text", text: "khan" }))[0]).toBe("Khan Academy");
    expect((await titles({ kind: "text", text: "duol" }))[0]).toMatch(/^Duolingo/);
    expect(await titles({ kind: "text", text: "pokemon" })).toContain("Pokémon GO");
    expect(await titles({ kind: "text", text: "POKÉMON go" })).toContain("Pokémon GO");
    // By developer: Google's apps.
    expect((await titles({ kind: "text", text: "google llc" })).length).toBeGreaterThan(3);
    // Words from the description only ("bite-sized lessons" is in Duolingo's description).
    expect(await titles({ kind: "text", text: "bite-sized" })).toContain("Duolingo: Language Lessons");
    expect(await titles({ kind: "text", text: "zzqqxx" })).toEqual([]);
    expect(await titles({ kind: "text", text: '"); DROP TABLE catalog_apps; --' })).toEqual([]);
  });

  it("filters by category, age group and expert rating; list items carry the store fields", async () => {
    const edu = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "category", category: "EDUCATION" });
    expect(edu.length).toBeGreaterThan(2);
    expect(edu.every((a) => a.genreId === "EDUCATION")).toBe(true);
    const young = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "age", age: "AGE_RANGE1" });
    expect(young.length).toBeGreaterThan(0);
    expect(young.every((a) => a.minAge <= 5)).toBe(true);
    const all = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "age", age: "AGE_RANGE_ALL" });
    expect(all.every((a) => a.minAge <= 12)).toBe(true);
    expect(all.length).toBeGreaterThan(young.length);
    const rec = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "expert", rating: "EXPERT_RECOMMENDATION" });
    expect(rec.length).toBeGreaterThan(0);
    expect(rec.every((a) => a.expertRating === "EXPERT_RECOMMENDATION")).toBe(true);
    const none = await searchCatalog(f.t.db, f.mia.deviceId, { kind: "expert", rating: "NOT_RATED" });
    expect(none.every((a) => a.expertRating === null)).toBe(true);
    const item = (await searchCatalog(f.t.db, f.mia.deviceId, { kind: "text", text: "khan academy" }))[0]!;
    expect(item).toMatchObject({ appId: "org.khanacademy.android", title: "Khan Academy", free: true, price: 0, scoreText: "4.6" });
    // Drawn here, linked from the page (the icon route draws it): no configured base in this test.
    expect(item.icon).toBe("/resources/app-icon?p=org.khanacademy.android&t=KA");
    expect(typeof item.isAppInstalled).toBe("boolean");
  });

  it("marks what is on the kid's phone and never lists the kids app", async () => {
    const onPhone = await f.t.db
      .selectFrom("profile_apps")
      .innerJoin("catalog_apps", "catalog_apps.package_name", "profile_apps.package_name")
      .select(["catalog_apps.title", "catalog_apps.genre_id"])
      .where("device_id", "=", f.mia.deviceId)
      .where("is_installed", "=", 1)
      .executeTakeFirstOrThrow();
    const hit = (await searchCatalog(f.t.db, f.mia.deviceId, { kind: "category", category: onPhone.genre_id! })).find(
      (a) => a.title === onPhone.title,
    );
    expect(hit?.isAppInstalled).toBe(true);
    expect((await searchCatalog(f.t.db, f.mia.deviceId, { kind: "text", text: "kidsportal" })).length).toBe(0);
  });
});
