import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../../index.testing";
import { domainCountsByCategory, listsVersion, listWebFilterCategories, markListsChanged, upsertWebFilterCategories } from "./categories";
import {
  categoriesOfName,
  deleteListedDomains,
  deleteSourceDomains,
  domainsOfSource,
  insertListedDomains,
  pageOfListedDomains,
} from "./domains";

const NOW = "2026-11-29T00:00:00.000Z";

describe.each(DIALECTS)("web filter lists on %s", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
    await upsertWebFilterCategories(
      t.db,
      [
        { id: "gambling", name: "Gambling", description: "Bets.", sort: 1 },
        { id: "adult", name: "Adult content", description: "Explicit.", sort: 0 },
        { id: "news", name: "News", description: "Papers.", sort: 2 },
      ],
      NOW,
    );
  });
  afterEach(() => t.destroy());

  const row = (domain: string, category_id: string, source = "hosts") => ({ domain, category_id, source });

  it("lists categories in their order, and upserting renames and reorders without duplicating", async () => {
    await upsertWebFilterCategories(t.db, [{ id: "news", name: "News sites", description: "Papers and TV.", sort: -1 }], NOW);
    expect(await listWebFilterCategories(t.db)).toEqual([
      { id: "news", name: "News sites", description: "Papers and TV." },
      { id: "adult", name: "Adult content", description: "Explicit." },
      { id: "gambling", name: "Gambling", description: "Bets." },
    ]);
  });

  it("adds each (domain, category) once, whatever the source, and says how many were new", async () => {
    expect(await insertListedDomains(t.db, [row("bet.example", "gambling"), row("poker.example", "gambling")])).toBe(2);
    expect(
      await insertListedDomains(t.db, [
        row("bet.example", "gambling", "other"),
        row("bet.example", "adult"),
        row("dice.example", "gambling"),
      ]),
    ).toBe(2);
    expect(await domainCountsByCategory(t.db)).toEqual({ adult: 1, gambling: 3, news: 0 });
    // More rows than one statement holds, in one call.
    const many = Array.from({ length: 2_500 }, (_, i) => row(`n${i}.example`, "news"));
    expect(await insertListedDomains(t.db, many)).toBe(2_500);
    expect(await insertListedDomains(t.db, many)).toBe(0);
    expect((await domainCountsByCategory(t.db)).news).toBe(2_500);
  });

  it("finds a name's categories by its suffixes: subdomains match, look-alikes do not", async () => {
    await insertListedDomains(t.db, [row("example.com", "gambling"), row("sub.example.com", "adult"), row("t.co", "news")]);
    expect(await categoriesOfName(t.db, "example.com")).toEqual(["gambling"]);
    expect(await categoriesOfName(t.db, "a.b.example.com")).toEqual(["gambling"]);
    expect(await categoriesOfName(t.db, "x.sub.example.com")).toEqual(["adult", "gambling"]);
    expect(await categoriesOfName(t.db, "badexample.com")).toEqual([]);
    expect(await categoriesOfName(t.db, "example.com.evil.net")).toEqual([]);
    expect(await categoriesOfName(t.db, "at.co")).toEqual([]);
    expect(await categoriesOfName(t.db, "com")).toEqual([]);
  });

  it("removes one source's domains of one category, or named ones, and leaves the rest", async () => {
    await insertListedDomains(t.db, [
      row("a.example", "gambling", "list1"),
      row("b.example", "gambling", "list1"),
      row("c.example", "gambling", "list2"),
      row("a.example", "adult", "list1"),
    ]);
    expect(await deleteListedDomains(t.db, "gambling", "list1", ["b.example", "c.example"])).toBe(1);
    expect(Object.fromEntries(await domainsOfSource(t.db, "list1"))).toEqual({ gambling: ["a.example"], adult: ["a.example"] });
    expect(await deleteSourceDomains(t.db, "gambling", "list1")).toBe(1);
    expect(await domainCountsByCategory(t.db)).toEqual({ adult: 1, gambling: 1, news: 0 });
  });

  it("pages through every (domain, category) in key order, a domain in two categories split across pages", async () => {
    const rows = [
      row("a.example", "adult"),
      row("a.example", "gambling"),
      row("b.example", "news"),
      row("c.example", "adult"),
      row("c.example", "news"),
    ];
    await insertListedDomains(t.db, [...rows].reverse());
    const seen: { domain: string; category_id: string }[] = [];
    let after: { domain: string; category_id: string } | null = null;
    for (;;) {
      const page = await pageOfListedDomains(t.db, after, 2);
      seen.push(...page);
      if (page.length < 2) break;
      after = page[page.length - 1];
    }
    expect(seen).toEqual(rows.map(({ domain, category_id }) => ({ domain, category_id })));
  });

  it("the lists' version moves when a category's lists are marked changed or its row changes, never on an upsert that changes nothing", async () => {
    const start = await listsVersion(t.db);
    const same = [
      { id: "gambling", name: "Gambling", description: "Bets.", sort: 1 },
      { id: "adult", name: "Adult content", description: "Explicit.", sort: 0 },
    ];
    await upsertWebFilterCategories(t.db, same, "2026-11-29T05:00:00.000Z");
    expect(await listsVersion(t.db)).toBe(start);
    await markListsChanged(t.db, "news", new Date("2026-11-29T06:00:00.000Z"));
    const imported = await listsVersion(t.db);
    expect(imported).not.toBe(start);
    // Compared for equality: a machine whose clock is behind still changes it.
    await markListsChanged(t.db, "adult", new Date("2020-01-01T00:00:00.000Z"));
    expect(await listsVersion(t.db)).not.toBe(imported);
    const before = await listsVersion(t.db);
    await upsertWebFilterCategories(
      t.db,
      [{ id: "gambling", name: "Gambling", description: "Bets and casinos.", sort: 1 }],
      "2026-11-29T07:00:00.000Z",
    );
    expect(await listsVersion(t.db)).not.toBe(before);
  });
});
