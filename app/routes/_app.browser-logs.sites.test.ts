import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "#core/env.server";
import { upsertVisits } from "#db/queries/web-filter/visits";
import { syncCuratedLists } from "#web-filter/lists/curated-sync";
import type { WebFilterService } from "#web-filter/service";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as browserLogs from "./_app.browser-logs";

const LEO = "DEMO-LEO-0002";
const DAY = "2026-03-10";
type Site = {
  domain: string;
  count: number;
  blocked: boolean;
  firstAt: string;
  lastAt: string;
  reason: { kind: string; name?: string; host?: string } | null;
  rule: string | null;
};
type Page = { sites: Site[] | null; list: unknown[]; olderHref: string | null; filterOn: boolean; keptDays: number };

/** /browser-logs?view=sites: the web filter's visited sites (issue 54 item 5), through the loader and action. */
describe("the Sites visited list of /browser-logs", () => {
  let h: Harness;
  let rh: RouteHarness;
  let leo: { profileId: string; deviceId: string };
  const changed: string[] = [];
  const service: WebFilterService = {
    hostname: (id) => `${id}.dns.example.test`,
    dohUrl: (id) => `https://portal.example.test/dns-query/${id}`,
    kidChanged: async (id) => void changed.push(id),
    countsByCategory: () => new Map(),
  };
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h } = rh);
    leo = await h.kid(LEO);
    await syncCuratedLists(h.tdb.db);
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: process.env.DATA_DIR, SESSION_SECRET: "t".repeat(40), WEB_LOG_DAYS: "14" });
    rh.extra = {
      services: { env, db: h.tdb.db, device: h.caller, log: () => {}, webFilter: service },
    } as unknown as Partial<AppLoadContext>;
    const at = (hh: string, mm: string) => `${DAY}T${hh}:${mm}:00.000Z`;
    await upsertVisits(h.tdb.db, [
      {
        profileId: leo.profileId,
        domain: "games.example.org",
        hour: `${DAY}T09`,
        firstAt: at("09", "05"),
        lastAt: at("09", "50"),
        count: 7,
        blocked: false,
        reason: null,
      },
      {
        profileId: leo.profileId,
        domain: "games.example.org",
        hour: `${DAY}T11`,
        firstAt: at("11", "00"),
        lastAt: at("11", "02"),
        count: 1,
        blocked: false,
        reason: null,
      },
      {
        profileId: leo.profileId,
        domain: "casino.example.org",
        hour: `${DAY}T10`,
        firstAt: at("10", "00"),
        lastAt: at("10", "00"),
        count: 1,
        blocked: true,
        reason: "category:gambling",
      },
    ]);
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const base = () => `/browser-logs?profileId=${leo.profileId}&serialNumber=${LEO}&currentDate=${DAY}&view=sites`;
  const page = async (url = base()) => (await (await rh.call(browserLogs.loader, url)).json()) as Page;

  it("lists the day's sites, the latest first: times, count, blocked and why; the addresses list is not read", async () => {
    const p = await page();
    expect(p.list).toEqual([]);
    expect(p.filterOn).toBe(true);
    expect(p.keptDays).toBe(14);
    expect(p.sites).toEqual([
      {
        domain: "games.example.org",
        firstAt: `${DAY}T09:05:00.000Z`,
        lastAt: `${DAY}T11:02:00.000Z`,
        count: 8,
        blocked: false,
        reason: null,
        rule: null,
      },
      {
        domain: "casino.example.org",
        firstAt: `${DAY}T10:00:00.000Z`,
        lastAt: `${DAY}T10:00:00.000Z`,
        count: 1,
        blocked: true,
        reason: { kind: "category", id: "gambling", name: "Gambling" },
        rule: null,
      },
    ]);
    // Another day: empty; without view=sites: the addresses, no sites.
    expect((await page(base().replace(DAY, "2026-03-11"))).sites).toEqual([]);
    expect((await page(base().replace("&view=sites", ""))).sites).toBeNull();
  });

  it("Block in one click adds the host as a blocked address of the phone, reloads the kid's filter, and marks the row", async () => {
    changed.length = 0;
    const res = await rh.call(browserLogs.action, base(), { form: { intent: "site", domain: "games.example.org", isBlocked: "true" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(base());
    expect(await rh.toastOf(res)).toMatchObject({ type: "success", message: "games.example.org is blocked on Leo's phone." });
    const rule = await h.tdb.db
      .selectFrom("browser_logs")
      .select(["url", "is_blocked"])
      .where("device_id", "=", leo.deviceId)
      .where("url", "=", "games.example.org")
      .executeTakeFirst();
    expect(rule).toEqual({ url: "games.example.org", is_blocked: 1 });
    expect(changed).toEqual([leo.profileId]);
    expect((await page()).sites!.find((s) => s.domain === "games.example.org")!.rule).toBe("games.example.org");
  });

  it("Unblock lifts the blocked address that covers the site, a parent domain included", async () => {
    await h.tdb.db.updateTable("browser_logs").set({ is_blocked: 0 }).where("device_id", "=", leo.deviceId).execute();
    await rh.call(browserLogs.action, base(), { form: { intent: "add", url: "example.org", status: "block" } });
    expect((await page()).sites!.map((s) => s.rule)).toEqual(["example.org", "example.org"]);
    changed.length = 0;
    const res = await rh.call(browserLogs.action, base(), { form: { intent: "site", domain: "casino.example.org", isBlocked: "false" } });
    expect(await rh.toastOf(res)).toMatchObject({
      type: "success",
      message: "casino.example.org is unblocked on Leo's phone (example.org is no longer blocked either).",
    });
    expect(changed).toEqual([leo.profileId]);
    expect((await page()).sites!.map((s) => s.rule)).toEqual([null, null]);
  });

  it("a bad site answers its message and changes nothing", async () => {
    changed.length = 0;
    const res = await rh.call(browserLogs.action, base(), {
      form: { intent: "site", domain: "games.example.org/path", isBlocked: "true" },
    });
    expect(await rh.toastOf(res)).toMatchObject({
      type: "error",
      message: "Choose a site of the list: a name such as example.com, without a path.",
    });
    expect(changed).toEqual([]);
  });

  it("another family's parent: the kid's sites and actions answer nothing, and nothing changes", async () => {
    changed.length = 0;
    const before = await h.tdb.db.selectFrom("browser_logs").select(["id", "is_blocked"]).orderBy("id").execute();
    const read = await rh.call(browserLogs.loader, base(), { token: rh.otherToken });
    expect(read.status).toBe(404);
    expect(await read.text()).not.toContain("games.example.org");
    const write = await rh.call(browserLogs.action, base(), {
      token: rh.otherToken,
      form: { intent: "site", domain: "games.example.org", isBlocked: "true" },
    });
    expect(write.status).toBe(404);
    expect(await h.tdb.db.selectFrom("browser_logs").select(["id", "is_blocked"]).orderBy("id").execute()).toEqual(before);
    expect(changed).toEqual([]);
  });
});
