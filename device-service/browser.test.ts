import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { upsertVisits } from "../db/queries/web-filter/visits";
import type { PolicyDocument } from "./policy/build";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Browser logs (spec 2 /browser-logs): a parent blocks and unblocks web addresses, the blocked list reaches the
// phone in its policy, the phone enforces it and reports every visit, allowed or blocked.
const LEO = "DEMO-LEO-0002";
const today = () => new Date().toISOString().slice(0, 10);

describe.each(DIALECTS)("browser logs on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const list = (extra: { urlText?: string; filterByStatus?: "block" | "unblock" } = {}) =>
    h.caller(h.demo).browser.list({ serialNumber: LEO, currentDate: today(), ...extra });

  it("a blocked host reaches the phone, which blocks its subdomains and reports the visit; Unblock All clears it", async () => {
    const phone = await h.phone(LEO);
    const r = await h.caller(h.demo).browser.create({ serialNumber: LEO, url: "HTTPS://Example.com/", isBlocked: true });
    expect(r.respones_msg).toBe("example.com is blocked on Leo's phone.");
    await waitFor(async () => ((phone.state.policy as PolicyDocument | undefined)?.blockedUrls ?? []).includes("example.com"));

    expect(await phone.visit("https://www.example.com/page")).toEqual({ blocked: true });
    expect(await phone.visit("https://www.wikipedia.org/")).toEqual({ blocked: false });
    const rows = (await list()).list;
    expect(rows.find((x) => x.url === "www.example.com/page")).toMatchObject({
      isBlocked: true,
      blockedBy: "example.com",
      visits: 1,
      blockedVisits: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(rows.find((x) => x.url === "example.com")).toMatchObject({ isBlocked: true, blockedBy: "example.com", visits: 0 });
    expect(rows.find((x) => x.url === "www.wikipedia.org")).toMatchObject({
      isBlocked: false,
      blockedBy: null,
      visits: 1,
      blockedVisits: 0,
    });

    expect((await list({ filterByStatus: "block" })).list.map((x) => x.url).sort()).toEqual(["example.com", "www.example.com/page"]);
    expect((await list({ filterByStatus: "unblock" })).list.map((x) => x.url)).toEqual(["www.wikipedia.org"]);
    expect((await list({ urlText: "WIKI" })).list.map((x) => x.url)).toEqual(["www.wikipedia.org"]);

    const all = await h.caller(h.demo).browser.unblockAll({ serialNumber: LEO });
    expect(all.respones_msg).toBe("Every web address is unblocked on Leo's phone.");
    expect((await list({ filterByStatus: "block" })).list).toEqual([]);
    await waitFor(async () => ((phone.state.policy as PolicyDocument | undefined)?.blockedUrls ?? ["x"]).length === 0);
    expect(await phone.visit("https://www.example.com/page")).toEqual({ blocked: false });
  });

  it("a visit is stored once per message id", async () => {
    const phone = await h.phone(LEO);
    const data = { url: "https://once.example.net/a", visitedAt: new Date().toISOString() };
    await phone.send("browser_visit", data, "visit-1");
    await phone.send("browser_visit", data, "visit-1");
    expect((await list({ urlText: "once.example" })).list).toMatchObject([{ url: "once.example.net/a", visits: 1 }]);
  });

  it("the lock toggle unblocks a visit by lifting every entry that covers it, and blocks one address", async () => {
    const phone = await h.phone(LEO);
    await h.caller(h.demo).browser.create({ serialNumber: LEO, url: "games.test", isBlocked: true });
    await waitFor(async () => ((phone.state.policy as PolicyDocument | undefined)?.blockedUrls ?? []).includes("games.test"));
    await phone.visit("http://play.games.test/level/1");
    const row = (await list({ urlText: "play.games" })).list[0]!;
    expect(row).toMatchObject({ isBlocked: true, blockedBy: "games.test" });
    const off = await h.caller(h.demo).browser.updateStatus({ serialNumber: LEO, id: row.id, isBlocked: false });
    expect(off.respones_msg).toBe("play.games.test/level/1 is unblocked on Leo's phone (games.test is no longer blocked either).");
    expect((await list({ urlText: "games.test" })).list.every((x) => !x.isBlocked)).toBe(true);
    await h.caller(h.demo).browser.updateStatus({ serialNumber: LEO, id: row.id, isBlocked: true });
    expect((await list({ urlText: "games.test" })).list.map((x) => [x.url, x.isBlocked])).toEqual(
      expect.arrayContaining([
        ["play.games.test/level/1", true],
        ["games.test", false],
      ]),
    );
    await waitFor(async () => ((phone.state.policy as PolicyDocument | undefined)?.blockedUrls ?? []).includes("play.games.test/level/1"));
    expect(await phone.visit("http://play.games.test/level/2")).toEqual({ blocked: false });
  });

  it("a day with many addresses is listed a page of 50 at a time (issue 52): a bounded page, and whether there is a next", async () => {
    const { deviceId } = await h.kid(LEO);
    const day = "2026-02-10";
    const ts = `${day}T12:00:00.000Z`;
    await h.tdb.db
      .insertInto("browser_logs")
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          id: `visit-${String(i).padStart(3, "0")}`,
          device_id: deviceId,
          url: `site-${String(i).padStart(3, "0")}.example.net`,
          day,
          visits: 1,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
    const page = (n?: number, urlText?: string) =>
      h
        .caller(h.demo)
        .browser.list({ serialNumber: LEO, currentDate: day, ...(n === undefined ? {} : { page: n }), ...(urlText ? { urlText } : {}) });
    const first = await page();
    expect(first).toMatchObject({ page: 1, hasNextPage: true, total: 120 });
    expect(first.list).toHaveLength(50);
    const third = await page(3);
    expect(third).toMatchObject({ page: 3, hasNextPage: false, total: 120 });
    expect(third.list).toHaveLength(20);
    const all = [...first.list, ...(await page(2)).list, ...third.list].map((r) => r.url);
    expect(new Set(all).size).toBe(120);
    // The search pages what it finds.
    expect(await page(1, "site-11")).toMatchObject({ total: 10, hasNextPage: false });
    expect((await page(4)).list).toEqual([]);
    await expect(page(0)).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("a bad address gets a clear message, nothing stored", async () => {
    await expect(h.caller(h.demo).browser.create({ serialNumber: LEO, url: "javascript:alert(1)", isBlocked: true })).rejects.toThrow(
      "Please enter a web address such as example.com or https://example.com/page.",
    );
    await expect(h.caller(h.demo).browser.list({ serialNumber: LEO, currentDate: "2026-13-45" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("another family's phone and rows are refused on every procedure, and nothing changes", async () => {
    const mine = (await list()).list[0]!;
    const other = h.caller(h.other);
    await expect(other.browser.list({ serialNumber: LEO, currentDate: today() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.browser.create({ serialNumber: LEO, url: "x.test", isBlocked: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.browser.updateStatus({ serialNumber: LEO, id: mine.id, isBlocked: !mine.isBlocked })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(other.browser.unblockAll({ serialNumber: LEO })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Their own phone with our row's id: the row is not theirs.
    await expect(
      other.browser.updateStatus({ serialNumber: h.other.serialNumber, id: mine.id, isBlocked: !mine.isBlocked }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await list()).list.find((x) => x.id === mine.id)?.isBlocked).toBe(mine.isBlocked);
  });

  it("the web filter's sites visited: the kid's day, the address that blocks each now (any phone of the kid); Block and Unblock", async () => {
    const leo = await h.kid(LEO);
    await upsertVisits(h.tdb.db, [
      {
        profileId: leo.profileId,
        domain: "games.example.org",
        hour: `${today()}T00`,
        firstAt: `${today()}T00:01:00.000Z`,
        lastAt: `${today()}T00:02:00.000Z`,
        count: 3,
        blocked: false,
        reason: null,
      },
    ]);
    const sites = () => h.caller(h.demo).browser.sites({ serialNumber: LEO, currentDate: today() });
    expect((await sites()).list).toEqual([
      {
        domain: "games.example.org",
        firstAt: `${today()}T00:01:00.000Z`,
        lastAt: `${today()}T00:02:00.000Z`,
        count: 3,
        blocked: false,
        reason: null,
        rule: null,
      },
    ]);
    await expect(h.caller(h.other).browser.sites({ serialNumber: LEO, currentDate: today() })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      h.caller(h.other).browser.setSite({ serialNumber: LEO, domain: "games.example.org", isBlocked: true }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    // Leo's second phone blocks the parent domain: the filter reads every phone of the kid, so the site shows it.
    const device = await h.tdb.db.selectFrom("devices").selectAll().where("id", "=", leo.deviceId).executeTakeFirstOrThrow();
    await h.tdb.db
      .insertInto("devices")
      .values({
        ...device,
        id: `${dialect}-leo-tablet`,
        serial_number: `DEMO-LEO-TAB-${dialect}`,
        imei: null,
        wifi_mac: null,
        credential_hash: null,
      })
      .execute();
    const ts = new Date().toISOString();
    await h.tdb.db
      .insertInto("browser_logs")
      .values({
        id: `${dialect}-tab-rule`,
        device_id: `${dialect}-leo-tablet`,
        url: "example.org",
        day: today(),
        is_blocked: 1,
        visits: 0,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    expect((await sites()).list[0]!.rule).toBe("example.org");
    const off = await h.caller(h.demo).browser.setSite({ serialNumber: LEO, domain: "games.example.org", isBlocked: false });
    expect(off.respones_msg).toBe("games.example.org is unblocked on Leo's phone (example.org is no longer blocked either).");
    expect((await sites()).list[0]!.rule).toBeNull();

    const phone = await h.phone(LEO);
    const on = await h.caller(h.demo).browser.setSite({ serialNumber: LEO, domain: "games.example.org", isBlocked: true });
    expect(on.respones_msg).toBe("games.example.org is blocked on Leo's phone.");
    expect((await sites()).list[0]!.rule).toBe("games.example.org");
    await waitFor(async () => ((phone.state.policy as PolicyDocument | undefined)?.blockedUrls ?? []).includes("games.example.org"));
    await expect(h.caller(h.demo).browser.setSite({ serialNumber: LEO, domain: "a.example/path", isBlocked: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});
