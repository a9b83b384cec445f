import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId, nowIso } from "../core/ids.server";
import { getDeviceDetails } from "../db/queries/dashboard/device";
import { listNotifications } from "../db/queries/dashboard/notifications";
import { listPendingRequests } from "../db/queries/requests";
import { startHarness, type Harness } from "../server/harness.testing";

// Text a phone sends is shown to parents: U+202E (right-to-left override) can make a shown address read as another
// ("https://evil.example/\u202Emoc.elgoog" looks like it ends in google.com), NUL and other controls hide or cut
// text. They are taken out at ingest (every surface) and again where rows are read for the pages (rows stored before).
const LEO = "DEMO-LEO-0002";
const RLO = "\u202E";
const NUL = "\u0000";
const today = () => new Date().toISOString().slice(0, 10);
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** What the pages read: notifications (dashboard), browser logs, device logs, requests and device info. */
async function shown(profileId: string, deviceId: string): Promise<string> {
  const caller = h.caller(h.demo);
  const pages = [
    await listNotifications(h.tdb.db, profileId, 100),
    await caller.browser.list({ serialNumber: LEO, currentDate: today() }),
    await caller.logs.list({ serialNumber: LEO, currentDate: today(), page: 1 }),
    await listPendingRequests(h.tdb.db, deviceId),
    await getDeviceDetails(h.tdb.db, deviceId),
  ];
  return JSON.stringify(pages);
}

describe("phone-sent text loses bidi controls and NUL", () => {
  it("at ingest: what the phone sends is stored and shown without them", async () => {
    const { profileId, deviceId } = await h.kid(LEO);
    const phone = await h.phone(LEO);
    await phone.send("notification", { type: `alert${RLO}`, message: `Open https://evil.example/${RLO}gnp.exe${NUL} now` });
    await phone.send("browser_visit", { url: `https://evil.example/${RLO}moc.elgoog${NUL}`, visitedAt: nowIso() });
    await phone.send("device_log", { title: `crash${RLO}`, details: { [`key${RLO}`]: `value${NUL}`, list: [`a${RLO}b`] } });
    await phone.send("app_request", { requestType: "App Install", packageName: "com.example.rlo", remarks: `please${RLO}${NUL}!` });
    await phone.send("device_info", { serialNumber: LEO, model: `Pixel${RLO} 8`, brand: `Goo${NUL}gle` });

    const text = await shown(profileId, deviceId);
    expect(text).toContain("Open https://evil.example/gnp.exe now");
    expect(text).toContain("evil.example/moc.elgoog");
    expect(text).toContain("please!");
    expect(text).toContain("Pixel 8");
    expect(text).not.toMatch(unsafe);
    expect(text).not.toContain("\\u0000");

    // Stored clean, so every other surface (mail, exports, the kids app's own reads) is covered too.
    const stored = JSON.stringify([
      await h.tdb.db.selectFrom("notifications").select(["message", "type"]).where("device_id", "=", deviceId).execute(),
      await h.tdb.db.selectFrom("browser_logs").select("url").where("device_id", "=", deviceId).execute(),
      await h.tdb.db.selectFrom("device_logs").select(["title", "details"]).where("device_id", "=", deviceId).execute(),
      await h.tdb.db.selectFrom("app_requests").select("remarks").where("device_id", "=", deviceId).execute(),
      await h.tdb.db.selectFrom("devices").select(["model", "brand"]).where("id", "=", deviceId).execute(),
    ]);
    expect(stored).not.toMatch(unsafe);
    expect(stored).not.toContain("\\u0000");
    await phone.close();
  });

  it("at display: rows stored before are shown without them", async () => {
    const { profileId, deviceId } = await h.kid(LEO);
    const ts = nowIso();
    const db = h.tdb.db;
    await db
      .insertInto("notifications")
      .values({
        id: newId(),
        profile_id: profileId,
        device_id: deviceId,
        message: `old ${RLO}txt.exe${NUL}`,
        type: "old",
        package_name: null,
        created_at: ts,
        read_at: null,
      })
      .execute();
    await db
      .insertInto("browser_logs")
      .values({
        id: newId(),
        device_id: deviceId,
        url: `old.example/${RLO}moc.knab`,
        day: today(),
        is_blocked: 0,
        visits: 1,
        blocked_visits: 0,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    await db
      .insertInto("device_logs")
      .values({
        id: newId(),
        device_id: deviceId,
        title: `old${RLO}`,
        details: JSON.stringify({ [`k${RLO}`]: `v${NUL}` }),
        device_time: null,
        created_at: ts,
      })
      .execute();
    await db
      .insertInto("app_requests")
      .values({
        id: newId(),
        profile_id: profileId,
        device_id: deviceId,
        package_name: "com.example.old",
        request_type: "App Install",
        extended_time: 0,
        remarks: `old${RLO}${NUL}`,
        message_id: `old-${newId()}`,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    await db
      .updateTable("devices")
      .set({ hardware: `old${RLO}hw` })
      .where("id", "=", deviceId)
      .execute();

    const text = await shown(profileId, deviceId);
    expect(text).toContain("old txt.exe");
    expect(text).toContain("old.example/moc.knab");
    expect(text).toContain("oldhw");
    expect(text).not.toMatch(unsafe);
    expect(text).not.toContain("\\u0000");
  });
});
