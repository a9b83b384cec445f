import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { createSchedule } from "#db/queries/time-rules/schedules";
import { readWebFilterSettings } from "#db/queries/web-filter/settings";
import { syncCuratedLists } from "#web-filter/lists/curated-sync";
import type { WebFilterService } from "#web-filter/service";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as webFilter from "./_app.web-filter";

const MIA = "DEMO-MIA-0001";
type Page = {
  categories: { id: string; name: string; domains: number }[];
  schedules: { id: string; name: string }[];
  saved: { blocked: { categoryId: string; scheduleId: string | null }[]; safeSearch: boolean; youtube: string; allowList: string[] };
  draft: Page["saved"];
  privateDns: { hostname: string } | null;
};

/** /web-filter through its loader and action, as a signed-in parent (issue 54 item 4). */
describe("the web filter page", () => {
  let h: Harness;
  let rh: RouteHarness;
  let mia: { profileId: string; deviceId: string };
  let school: string;
  const changed: string[] = [];
  const service: WebFilterService = {
    hostname: (id) => `${id}.dns.example.test`,
    dohUrl: (id) => `https://portal.example.test/dns-query/${id}`,
    kidChanged: async (id) => void changed.push(id),
    countsByCategory: () => new Map([["social-networks", 1234]]),
  };
  const withService = (on: boolean) => {
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "t".repeat(40) });
    rh.extra = on
      ? ({ services: { env, db: h.tdb.db, device: h.caller, log: () => {}, webFilter: service } } as unknown as Partial<AppLoadContext>)
      : {};
  };
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h } = rh);
    mia = await h.kid(MIA);
    await syncCuratedLists(h.tdb.db);
    school = await createSchedule(h.tdb.db, mia.profileId, {
      name: "School time",
      days: [0, 1, 2, 3, 4],
      start: 510,
      end: 900,
      blocksAll: false,
      categories: [],
      apps: [],
    });
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const base = () => `/web-filter?profileId=${mia.profileId}&serialNumber=${MIA}`;
  const page = async (qs = "") => (await (await rh.call(webFilter.loader, `${base()}${qs}`)).json()) as Page;
  const post = (fields: Record<string, string | string[]>, o: { token?: string } = {}) => {
    const f = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
    return rh.call(webFilter.action, base(), { form: f, ...o });
  };

  it("without the filter on this server: no hostname, counts from the database, the curated categories", async () => {
    withService(false);
    const p = await page();
    expect(p.privateDns).toBeNull();
    expect(p.categories.length).toBeGreaterThanOrEqual(12);
    expect(p.categories.find((c) => c.id === "social-networks")).toMatchObject({ name: "Social networks" });
    expect(p.categories.every((c) => c.domains > 0)).toBe(true);
    expect(p.schedules).toEqual([{ id: school, name: "School time" }]);
    expect(p.saved).toEqual({ blocked: [], safeSearch: false, youtube: "off", allowList: [] });
  });

  it("with the filter: the phone's own hostname, counts from the lists in memory", async () => {
    withService(true);
    const p = await page();
    const { filterId } = await readWebFilterSettings(h.tdb.db, mia.profileId);
    expect(filterId).toMatch(/^[a-z0-9]{20}$/);
    expect(p.privateDns).toEqual({ hostname: `${filterId}.dns.example.test` });
    expect(p.categories.find((c) => c.id === "social-networks")?.domains).toBe(1234);
    expect(p.categories.find((c) => c.id === "adult")?.domains).toBe(0);
  });

  it("a switch changes the draft in the URL, not the settings", async () => {
    withService(true);
    const res = await post({ "cat.social-networks:on": "Social networks", safeSearchOn: "off", youtube: "off" });
    expect(res.status).toBe(302);
    const to = res.headers.get("Location")!;
    expect(to).toContain("draft=1");
    expect(to).toContain("block=social-networks");
    expect(to).toContain("#cat-social-networks");
    expect(await rh.toastOf(res)).toMatchObject({ type: "info", message: "Not saved yet: press Save." });
    expect(
      (
        await page(
          to
            .slice(to.indexOf("?"))
            .replace(/^\?[^&]*&[^&]*/, "")
            .replace(/#.*/, ""),
        )
      ).draft.blocked,
    ).toEqual([{ categoryId: "social-networks", scheduleId: null }]);
    expect((await readWebFilterSettings(h.tdb.db, mia.profileId)).blockedCategories).toEqual([]);
  });

  it("a bad host answers 400 with its message and the draft as posted", async () => {
    const res = await post({
      intent: "add",
      newHost: "not a site",
      block: "games",
      safeSearchOn: "on",
      youtube: "strict",
      allow: "a.example",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "“not a site” is not a website name: type a site such as example.com.",
      newHost: "not a site",
      draft: { blocked: [{ categoryId: "games", scheduleId: null }], safeSearch: true, youtube: "strict", allowList: ["a.example"] },
    });
  });

  it("Add puts a good host in the draft; Remove takes it out", async () => {
    const added = await post({ intent: "add", newHost: "https://www.KhanAcademy.org/math", youtube: "off" });
    expect(added.headers.get("Location")).toContain("allow=www.khanacademy.org");
    expect(await rh.toastOf(added)).toMatchObject({ message: "www.khanacademy.org added. Not saved yet: press Save." });
    const removed = await post({ remove: "a.example", allow: ["a.example", "b.example"], youtube: "off" });
    expect(removed.headers.get("Location")).toContain("allow=b.example");
    expect(removed.headers.get("Location")).not.toContain("a.example");
  });

  it("Save stores the settings, tells the filter and says what changed", async () => {
    withService(true);
    changed.length = 0;
    const res = await post({
      intent: "save",
      block: ["social-networks", "games"],
      "schedule.games": school,
      "schedule.social-networks": "always",
      safeSearchOn: "on",
      youtube: "moderate",
      allow: "khanacademy.org",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(base());
    expect(await rh.toastOf(res)).toMatchObject({
      type: "success",
      message:
        "Web filter saved: Games blocked during School time; Social networks blocked; SafeSearch on; YouTube Restricted Mode moderate; khanacademy.org always allowed.",
    });
    expect(changed).toEqual([mia.profileId]);
    const s = await readWebFilterSettings(h.tdb.db, mia.profileId);
    expect(s).toMatchObject({
      safeSearch: true,
      youtube: "moderate",
      allowList: ["khanacademy.org"],
      blockedCategories: [
        { categoryId: "games", scheduleId: school },
        { categoryId: "social-networks", scheduleId: null },
      ],
    });
    expect((await page()).saved.safeSearch).toBe(true);
  });

  it("Save keeps only valid hosts of the list (a hand-made URL or form cannot store anything else)", async () => {
    await post({ intent: "save", youtube: "off", allow: ["not a host", "192.168.1.1", "OK.example"] });
    expect((await readWebFilterSettings(h.tdb.db, mia.profileId)).allowList).toEqual(["ok.example"]);
  });

  it("Save without the filter on this server still stores the settings", async () => {
    withService(false);
    const res = await post({ intent: "save", youtube: "off" });
    expect(await rh.toastOf(res)).toMatchObject({ type: "success" });
    expect((await readWebFilterSettings(h.tdb.db, mia.profileId)).blockedCategories).toEqual([]);
  });

  it("another family's parent gets 404 from the loader and the action, and nothing changes", async () => {
    const before = await readWebFilterSettings(h.tdb.db, mia.profileId);
    const res = await rh.call(webFilter.loader, base(), { token: rh.otherToken });
    expect(res.status).toBe(404);
    const posted = await post({ intent: "save", block: "adult", youtube: "strict" }, { token: rh.otherToken });
    expect(posted.status).toBe(404);
    expect(await readWebFilterSettings(h.tdb.db, mia.profileId)).toEqual(before);
  });
});
