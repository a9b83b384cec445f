import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { domainCountsByCategory, listWebFilterCategories } from "../../db/queries/web-filter/categories";
import { domainsOfSource, insertListedDomains } from "../../db/queries/web-filter/domains";
import { CURATED_CATEGORIES, CURATED_SOURCE, type CuratedCategory } from "./curated";
import { syncCuratedLists } from "./curated-sync";
import { loadDomainIndex } from "./load";

const total = CURATED_CATEGORIES.reduce((n, c) => n + c.domains.length, 0);

describe.each(DIALECTS)("the curated lists in the database on %s", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
  });
  afterEach(() => t.destroy());

  it("writes every category and domain once, and a second run changes nothing", async () => {
    expect(await syncCuratedLists(t.db)).toEqual({ added: total, removed: 0 });
    expect(await syncCuratedLists(t.db)).toEqual({ added: 0, removed: 0 });
    expect((await listWebFilterCategories(t.db)).map((c) => c.id)).toEqual(CURATED_CATEGORIES.map((c) => c.id));
    expect(await domainCountsByCategory(t.db)).toEqual(Object.fromEntries(CURATED_CATEGORIES.map((c) => [c.id, c.domains.length])));
  });

  it("follows a new release of the list: domains added and dropped, names changed; operators' imports untouched", async () => {
    const v1: CuratedCategory[] = [
      { id: "gambling", name: "Gambling", description: "Bets.", domains: ["bet365.com", "betfair.com"] },
      { id: "news", name: "News", description: "Papers.", domains: ["bbc.co.uk"] },
    ];
    await syncCuratedLists(t.db, v1);
    await insertListedDomains(t.db, [{ domain: "casino.example.org", category_id: "gambling", source: "hosts" }]);
    const v2: CuratedCategory[] = [
      { id: "gambling", name: "Betting", description: "Bets and casinos.", domains: ["bet365.com", "stake.com"] },
    ];
    expect(await syncCuratedLists(t.db, v2)).toEqual({ added: 1, removed: 2 });
    expect(Object.fromEntries(await domainsOfSource(t.db, CURATED_SOURCE))).toEqual({ gambling: ["bet365.com", "stake.com"] });
    expect(Object.fromEntries(await domainsOfSource(t.db, "hosts"))).toEqual({ gambling: ["casino.example.org"] });
    expect((await listWebFilterCategories(t.db)).find((c) => c.id === "gambling")).toEqual({
      id: "gambling",
      name: "Betting",
      description: "Bets and casinos.",
    });
  });

  it("refuses a curated domain that is not normalised, before writing anything", async () => {
    await expect(syncCuratedLists(t.db, [{ id: "news", name: "News", description: "Papers.", domains: ["BBC.co.uk"] }])).rejects.toThrow(
      /news: BBC.co.uk is not a normalised domain/,
    );
    expect(await listWebFilterCategories(t.db)).toEqual([]);
  });

  it("loads into the in-memory lists: a host's subdomains match, look-alikes do not, counts as in the database", async () => {
    await syncCuratedLists(t.db);
    const index = await loadDomainIndex(t.db);
    expect(index.lookupCategories("www.pornhub.com")).toEqual(["adult"]);
    expect(index.lookupCategories("m.youtube.com")).toEqual(["video-streaming"]);
    expect(index.lookupCategories("notyoutube.com")).toEqual([]);
    expect(index.lookupCategories("news.bbc.co.uk")).toEqual(["news"]);
    expect(index.countsByCategory()).toEqual(await domainCountsByCategory(t.db));
  });
});
