import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../server/web.testing";

// The real server (SQLite, demo family), read as a browser without JavaScript reads it (needs `remix build`).
let h: Awaited<ReturnType<typeof startTestServer>>;

let started: (typeof h)["started"];
let base: string;
let cookie: string;
let mia: { profileId: string; deviceId: string };

const get = (url: string) => h.get(url, cookie);
const post = (url: string, fields: Record<string, string>) => h.post(url, fields, cookie);
const REFRESH = '<noscript><meta http-equiv="refresh" content="5; url=/kids-device?profileId=';

beforeAll(async () => {
  h = await startTestServer("nojs");
  ({ started, base } = h);
  const db = started.services.db;
  cookie = (await h.signIn("demo@kids-portal.test")).cookie;
  mia = await db
    .selectFrom("devices")
    .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
    .select(["devices.id as deviceId", "devices.profile_id as profileId"])
    .where("kid_profiles.name", "=", "Mia")
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await started?.close();
});

describe("honest without JavaScript", () => {
  it("an action comes back at its section; the page refreshes itself while the phone has not confirmed, and stops once it has", async () => {
    const before = await get(`/kids-device?profileId=${mia.profileId}`);
    expect(before.html).not.toContain(REFRESH);

    const res = await post(`/kids-device?profileId=${mia.profileId}&modal=sleep`, {
      intent: "sleep",
      profileId: mia.profileId,
      sleepMode: "on",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/kids-device?profileId=${mia.profileId}#controls`);

    const waiting = await get(`/kids-device?profileId=${mia.profileId}`);
    const head = /<head>[\s\S]*<\/head>/.exec(waiting.html)?.[0] ?? "";
    expect(head).toContain(REFRESH);
    expect(waiting.html).toContain('id="controls"');

    await started.services.db
      .updateTable("device_policies")
      .set({ acknowledged_at: new Date().toISOString() })
      .where("device_id", "=", mia.deviceId)
      .execute();
    const confirmed = await get(`/kids-device?profileId=${mia.profileId}`);
    expect(confirmed.html).not.toContain(REFRESH);
  });

  it("Show More and Show Less come back at their list", async () => {
    const { html } = await get(`/kids-device?profileId=${mia.profileId}&filter=week&week=previous`);
    const more =
      /href="([^"]*)"[^>]*aria-label="Show More apps"/.exec(html)?.[1] ?? /aria-label="Show More apps"[^>]*href="([^"]*)"/.exec(html)?.[1];
    expect(more).toMatch(/#apps$/);
    expect(html).toContain('id="apps"');
  });

  it("no document has anything after </html>", async () => {
    for (const url of ["/login", `/kids-device?profileId=${mia.profileId}`]) {
      const html = url === "/login" ? await (await fetch(`${base}${url}`)).text() : (await get(url)).html;
      expect(html.trimEnd().endsWith("</html>")).toBe(true);
    }
  });

  it("the map without JavaScript: the framed map draws the base map around the pin; the map page shows the coordinates, the time and the OpenStreetMap link", async () => {
    const dash = await get(`/kids-device?profileId=${mia.profileId}`);
    const src = /<iframe[^>]*src="([^"]*)"/.exec(dash.html)?.[1]?.replace(/&amp;/g, "&");
    expect(src).toMatch(/^\/map\?lat=51\.5014&long=-0\.1419&zoom=12&bbox=[^&]+&at=\d{4}-\d\d-\d\dT/);
    expect(src).toContain(`profileId=${mia.profileId}`);
    expect(src).toContain("embed=1");
    const framed = await get(src!);
    expect(framed.res.status).toBe(200);
    expect(framed.html).toContain("country borders and coasts around United Kingdom, the pin at 51.50140, -0.14190");
    expect(framed.html).toContain("JavaScript is off in this browser: the map shows country borders and coasts.");
    // The base map is an image with nothing focusable inside (axe: focusable content in an image).
    expect(/<svg[^>]*role="img"[^>]*>[\s\S]*?<\/svg>/.exec(framed.html)?.[0]).not.toMatch(/<a\s/);

    const page = await get(src!.replace("&embed=1", ""));
    expect(page.res.status).toBe(200);
    expect(page.html).toContain("51.50140, -0.14190");
    expect(page.html).toMatch(/Reported [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d [AP]M UTC/);
    expect(page.html).toContain('href="https://www.openstreetmap.org/?mlat=51.5014&amp;mlon=-0.1419#map=13/51.5014/-0.1419"');
  });

  it('"Need a help?" opens /contact signed out too: support email, phone, London, UK, how it works, the subscription expander', async () => {
    const res = await fetch(`${base}/contact`, { redirect: "manual" });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("support@kids-portal.example");
    expect(html).toContain("+44 20 7946 0958");
    expect(html).toContain("London, UK");
    expect(html).toContain(">How it works</a>");
    expect(html).toContain("<summary>How do I manage my subscription?</summary>");
    expect(html).toContain('href="/login"');
  });

  it("the dashboard shows whether the phone is online now and when it was last seen", async () => {
    const db = started.services.db;
    const seen = "2026-11-20T09:30:00.000Z";
    await db.updateTable("device_status").set({ online: 0, updated_at: seen }).where("device_id", "=", mia.deviceId).execute();
    const offline = (await get(`/kids-device?profileId=${mia.profileId}`)).html;
    expect(offline).toMatch(/data-testid="phone-presence"[^>]*>Offline, last seen Nov 20, 2026, 9:30 AM UTC</);
    await db.updateTable("device_status").set({ online: 1 }).where("device_id", "=", mia.deviceId).execute();
    const online = (await get(`/kids-device?profileId=${mia.profileId}`)).html;
    expect(online).toMatch(/data-testid="phone-presence"[^>]*>Online now</);
  });

  it("the not-found page shows no glyph a platform may not draw (no emoji), only text and a drawn icon", async () => {
    const res = await fetch(`${base}/no-such-page`);
    expect(res.status).toBe(404);
    const body = /<body>[\s\S]*<\/body>/.exec(await res.text())?.[0] ?? "";
    expect(body).toContain("Oops! You&#x27;re lost.");
    expect(body).not.toMatch(/\p{Extended_Pictographic}/u);
  });
});
