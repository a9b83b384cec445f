import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";
import { cachedGet, statementsDuring, tablesOf } from "./page-cache.testing";
import { createParent, findParentByEmail } from "#db/queries/parents";
import { revokeSession } from "#db/queries/sessions";
import { newId } from "#core/ids.server";

// The real server (SQLite, demo family) answering /kids-device through the page cache (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;
const { KEYED_TABLES } = await import("./page-cache.server");
const { VIEW_REV_TABLES } = await import("#db/view-revisions");
const { ingestUsage } = await import("#device-service/socket/telemetry");

let started: (typeof h)["started"];
let base: string;
let cookie: string;
let mia: { profileId: string; deviceId: string };

const get = (pathAndQuery: string, headers: Record<string, string> = { Cookie: cookie }) => cachedGet(base, pathAndQuery, headers);

const signIn = (parentId: string) => h.signIn({ id: parentId });

beforeAll(async () => {
  h = await startTestServer("page-cache");
  ({ started, base } = h);
  const db = started.services.db;
  const parent = (await findParentByEmail(db, "demo@kids-portal.test"))!;
  ({ cookie } = await signIn(parent.id));
  const d = await db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["devices.id", "devices.profile_id"])
    .where("kid_profiles.name", "=", "Mia")
    .executeTakeFirstOrThrow();
  mia = { profileId: d.profile_id, deviceId: d.id };
});
afterAll(async () => {
  await started?.close();
});

describe("dashboard page cache", () => {
  it("answers a repeat view from the cache: the stored page authorises its own inline scripts by hash, no nonce", async () => {
    const url = `/kids-device?profileId=${mia.profileId}&filter=week`;
    const first = await get(url);
    const second = await get(url);
    expect(first.res.status).toBe(200);
    expect(first.cache).toBe("miss");
    expect(second.cache).toBe("hit");
    expect(second.res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Guarded pages are never stored by any cache (Back after sign-out shows no family data), from either path.
    expect(first.res.headers.get("cache-control")).toBe("no-store");
    expect(second.res.headers.get("cache-control")).toBe("no-store");
    // The miss already answers with the stored form: the same page and the same policy as every hit.
    expect(second.html).toBe(first.html);
    const csp = second.res.headers.get("content-security-policy") ?? "";
    expect(first.res.headers.get("content-security-policy")).toBe(csp);
    expect(csp).not.toContain("nonce-");
    expect(csp).toContain("object-src 'none'");
    expect(second.html).not.toMatch(/nonce=/);
    // Every inline script of the page, and nothing else, is authorised by the hash of its exact text.
    const inline = [...second.html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter((m) => !/\ssrc=/.test(m[1])).map((m) => m[2]);
    expect(inline.length).toBeGreaterThanOrEqual(3);
    const allowed = /script-src ([^;]*)/.exec(csp)![1].split(" ");
    expect(allowed.sort()).toEqual(
      ["'self'", ...new Set(inline.map((t) => `'sha256-${createHash("sha256").update(t, "utf8").digest("base64")}'`))].sort(),
    );
    // Sent gzip-compressed as stored, decompressed for a client that does not take gzip.
    expect(second.res.headers.get("content-encoding")).toBe("gzip");
    const plain = await get(url, { Cookie: cookie, "Accept-Encoding": "identity" });
    expect(plain.cache).toBe("hit");
    expect(plain.res.headers.get("content-encoding")).toBeNull();
    expect(plain.html).toBe(first.html);
  });

  it("shows a change from the phone or the database on the very next view", async () => {
    const url = `/kids-device?profileId=${mia.profileId}`;
    await get(url);
    const before = await get(url);
    expect(before.cache).toBe("hit");
    const unread = Number(/Notifications, (\d+) unread/.exec(before.html)?.[1] ?? 0);

    await started.services.db
      .insertInto("notifications")
      .values({
        id: newId(),
        profile_id: mia.profileId,
        device_id: mia.deviceId,
        message: "Mia installed Chess",
        type: "install",
        package_name: null,
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    const afterNotification = await get(url);
    expect(afterNotification.cache).toBe("miss");
    expect(afterNotification.html).toContain(`Notifications, ${unread + 1} unread`);

    // A usage upload through the device service's own ingest path.
    const total = (html: string) => /data-testid="total-time">([^<]*)</.exec(html)?.[1];
    expect((await get(url)).cache).toBe("hit");
    const now = new Date();
    await ingestUsage(started.services.db, mia.deviceId, [{ packageName: "com.example.chess", hour: now.toISOString(), minutes: 59 }]);
    const afterUsage = await get(url);
    expect(afterUsage.cache).toBe("miss");
    expect(total(afterUsage.html)).not.toBe(total(before.html));
  });

  it("ships the chart's SVGs once: in a document's HTML, not again in its data script; in single-fetch data", async () => {
    const svgsIn = (text: string) => text.match(/<svg\b/g)?.length ?? 0;
    for (const query of [`profileId=${mia.profileId}`, `profileId=${mia.profileId}&filter=week`]) {
      const doc = await get(`/kids-device?${query}`);
      const scripts = [...doc.html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join("\n");
      // Phone and wide, in the figure; the data script carries no markup (escaped for a script: \u003csvg).
      for (const size of ["phone", "wide"])
        expect(doc.html).toMatch(new RegExp(`<div class="chart-svg chart-size-${size}"[^>]*>(<div [^>]*>)?<svg `));
      expect(scripts).toContain("routes/_app.kids-device");
      expect(scripts).not.toMatch(/u003csvg/i);
      // Client-side navigation has no HTML to show it from: its data carries both.
      const data = await get(`/kids-device.data?${query}`);
      expect(svgsIn(data.html)).toBe(2);
    }
  });

  it("answers single-fetch data (client-side navigation) from the cache too, and drops it on a change", async () => {
    const url = `/kids-device.data?profileId=${mia.profileId}&filter=week&apps=6`;
    const first = await get(url);
    const second = await get(url);
    expect(first.res.status).toBe(200);
    expect([first.cache, second.cache]).toEqual(["miss", "hit"]);
    expect(second.res.headers.get("content-type")).toBe(first.res.headers.get("content-type"));
    expect([first.res.headers.get("cache-control"), second.res.headers.get("cache-control")]).toEqual(["no-store", "no-store"]);
    expect(second.html).toBe(first.html);
    expect(second.html).toContain("routes/_app.kids-device");
    await started.services.db
      .insertInto("notifications")
      .values({
        id: newId(),
        profile_id: mia.profileId,
        device_id: mia.deviceId,
        message: "Mia asked to install Maps",
        type: "request",
        package_name: null,
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    const third = await get(url);
    expect(third.cache).toBe("miss");
    expect(third.html).not.toBe(first.html);
  });

  it("reads the query as the loader does: a repeated profileId names the first kid, for the key too", async () => {
    const leo = await started.services.db.selectFrom("kid_profiles").select("id").where("name", "=", "Leo").executeTakeFirstOrThrow();
    const url = `/kids-device?profileId=${leo.id}&profileId=${mia.profileId}`;
    await get(url);
    expect((await get(url)).cache).toBe("hit");
    await started.services.db
      .insertInto("notifications")
      .values({
        id: newId(),
        profile_id: leo.id,
        device_id: (await started.services.db.selectFrom("devices").select("id").where("profile_id", "=", leo.id).executeTakeFirstOrThrow())
          .id,
        message: "Leo asked for more time",
        type: "request",
        package_name: null,
        created_at: new Date().toISOString(),
        read_at: null,
      })
      .execute();
    expect((await get(url)).cache).toBe("miss");
  });

  it("checks the session on every view: a revoked session gets the sign-in page, not the cached dashboard", async () => {
    const parent = (await findParentByEmail(started.services.db, "demo@kids-portal.test"))!;
    const s = await signIn(parent.id);
    expect((await get("/kids-device", { Cookie: s.cookie })).res.status).toBe(200);
    expect((await get("/kids-device", { Cookie: s.cookie })).cache).toBe("hit");
    await revokeSession(started.services.db, s.token);
    const after = await get("/kids-device", { Cookie: s.cookie });
    expect(after.res.status).toBe(302);
    expect(after.res.headers.get("location")).toBe("/login");
    expect(after.cache).toBeNull();
  });

  it("keeps parents apart: another family asking for the same URL gets its own answer", async () => {
    const url = `/kids-device?profileId=${mia.profileId}`;
    await get(url);
    expect((await get(url)).cache).toBe("hit");
    const other = await createParent(started.services.db, {
      email: `other-${newId()}@example.test`,
      name: "Other Parent",
      passwordHash: null,
    });
    const s = await signIn(other.id);
    const theirs = await get(url, { Cookie: s.cookie });
    expect(theirs.res.status).toBe(404);
    expect(theirs.html).not.toContain("Mia");
    const home = await get("/kids-device", { Cookie: s.cookie });
    expect(home.res.status).toBe(200);
    expect(home.html).not.toContain(mia.profileId);
  });

  it("never caches the notification centre (opening it marks notifications read) or a page carrying a toast", async () => {
    const url = `/kids-device?profileId=${mia.profileId}&modal=notifications`;
    const a = await get(url);
    const b = await get(url);
    expect(a.res.status).toBe(200);
    expect([a.cache, b.cache]).toEqual([null, null]);
    const home = await get(`/kids-device?profileId=${mia.profileId}`);
    expect(home.html).toContain("Notifications, 0 unread");
    const withToast = await get(`/kids-device?profileId=${mia.profileId}`, { Cookie: `${cookie}; kp_toast=anything` });
    expect(withToast.cache).toBeNull();
  });

  it("compresses every dashboard answer exactly once: document and data, miss and hit, and pages it passes on", async () => {
    await started.services.db
      .updateTable("kid_profiles")
      .set((eb) => ({ view_rev: eb("view_rev", "+", 1) }))
      .where("id", "=", mia.profileId)
      .execute();
    const answers = [
      await get(`/kids-device?profileId=${mia.profileId}&filter=week&apps=7`),
      await get(`/kids-device?profileId=${mia.profileId}&filter=week&apps=7`),
      await get(`/kids-device.data?profileId=${mia.profileId}&filter=week&apps=7`),
      await get(`/kids-device.data?profileId=${mia.profileId}&filter=week&apps=7`),
      await get(`/kids-device?profileId=${mia.profileId}&modal=notifications`),
      await get(`/Kids-Device/?profileId=${mia.profileId}`),
      await get(`/kids-device`, {}),
    ];
    expect(answers.map((a) => a.cache)).toEqual(["miss", "hit", "miss", "hit", null, "miss", null]);
    expect(answers.map((a) => a.res.headers.get("content-encoding"))).toEqual(["gzip", "gzip", "gzip", "gzip", "gzip", "gzip", null]);
    // Decoded once by the client, each is the page or the data itself (compressed twice it would be gzip bytes).
    for (const a of [answers[0], answers[1], answers[4], answers[5]]) expect(a.html).toContain("Most used apps");
    for (const a of [answers[2], answers[3]]) expect(a.html).toContain("routes/_app.kids-device");
    // Signed out: the redirect to sign-in, small enough to go as it is.
    expect(answers[6].res.status).toBe(302);
    // With the cache turned off (PAGE_CACHE_MB=0) every dashboard answer is still compressed, once.
    const limit = started.pageCache.limit;
    started.pageCache.resize(0);
    try {
      const off = await get(`/kids-device?profileId=${mia.profileId}&filter=week&apps=7`);
      expect([off.cache, off.res.headers.get("content-encoding")]).toEqual([null, "gzip"]);
      expect(off.html).toContain("Most used apps");
    } finally {
      started.pageCache.resize(limit);
    }
    // Other pages are compressed as before.
    const settings = await get("/parent-profile");
    expect(settings.res.status, settings.res.headers.get("location") ?? "").toBe(200);
    expect(settings.res.headers.get("content-encoding")).toBe("gzip");
  });

  it("the dashboard reads only tables whose writes move view_rev or that the key covers", async () => {
    started.pageCache.clear();
    const statements = await statementsDuring(async () => {
      for (const q of [
        "",
        "&filter=week",
        "&filter=week&week=previous&apps=9&cats=6",
        "&tab=info",
        "&modal=sleep",
        "&modal=protection",
        "&modal=recommendation",
        "&modal=edit",
        "&modal=switch",
        "&modal=enroll",
      ]) {
        const r = await get(`/kids-device?profileId=${mia.profileId}${q}`);
        expect(r.res.status).toBe(200);
      }
      await get("/kids-device");
    });
    const seen = tablesOf(statements);
    const allowed = new Set<string>([...VIEW_REV_TABLES, ...KEYED_TABLES]);
    expect(seen.size).toBeGreaterThan(5);
    expect([...seen].filter((t) => !allowed.has(t))).toEqual([]);
  });
});
