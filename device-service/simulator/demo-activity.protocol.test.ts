import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../db/index.testing";
import { seedDemo } from "../../db/seed/index";
import { applyPolicy } from "../policy/store";
import { startHarness, type Harness } from "../../server/harness.testing";
import { startDemoPhones, type DemoPhones } from "./demo";
import { fakeTimers } from "./demo-activity.testing";

/**
 * Issue 53 item 9 through the real device protocol: the demo phones' activity (its first minute on timers driven by
 * hand) reaches the portal's tables as a real phone's frames do; a restart while the requests wait adds none.
 */
describe.each(DIALECTS)("demo activity over the device protocol on %s", (dialect) => {
  let h: Harness;
  let demo: DemoPhones | undefined;
  const startedAt = new Date();

  const idle = () => Promise.all(demo!.activities.map((a) => a.idle()));
  const start = async () => {
    const clock = fakeTimers(Date.now());
    demo = await startDemoPhones(h.tdb.db, h.url, () => {}, {
      applyPolicy: (deviceId) => applyPolicy(h.runtime.deps, deviceId),
      activity: { timers: clock.timers, now: clock.now },
    });
    expect(demo.activities).toHaveLength(2);
    return clock;
  };
  const requests = () =>
    h.tdb.db.selectFrom("app_requests").select(["device_id", "request_type", "status"]).where("message_id", "is not", null).execute();

  beforeAll(async () => {
    h = await startHarness({ dialect, seed: false });
    await seedDemo(h.tdb.db, startedAt);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
    await h?.close();
  });

  it("within the first minute each demo kid has asked for all three kinds, visited sites, notified, and the battery moved", async () => {
    const before = await h.tdb.db.selectFrom("device_status").select(["device_id", "battery_percentage"]).execute();
    const clock = await start();
    clock.advance(60_000);
    await idle();
    const devices = demo!.phones.map((p) => p.deviceId!);
    const rows = await requests();
    for (const d of devices) {
      expect(
        rows
          .filter((r) => r.device_id === d && r.status === "Pending")
          .map((r) => r.request_type)
          .sort(),
      ).toEqual(["App Install", "App Uninstall", "Extend Time"]);
    }
    const visits = await h.tdb.db.selectFrom("browser_logs").select(["device_id", "url"]).execute();
    for (const d of devices) expect(visits.filter((v) => v.device_id === d).length).toBeGreaterThanOrEqual(1);
    expect(visits.map((v) => v.url)).toContain("www.bbc.co.uk/cbbc");
    const notes = await h.tdb.db
      .selectFrom("notifications")
      .select(["device_id", "type", "message"])
      .where("created_at", ">", startedAt.toISOString())
      .where("type", "!=", "app_request")
      .execute();
    for (const d of devices) expect(notes.filter((n) => n.device_id === d).length).toBeGreaterThanOrEqual(1);
    expect(notes.map((n) => n.message)).toContain("Leo's phone battery is low.");
    const after = await h.tdb.db.selectFrom("device_status").select(["device_id", "battery_percentage"]).execute();
    for (const d of devices)
      expect(after.find((s) => s.device_id === d)!.battery_percentage).not.toBe(before.find((s) => s.device_id === d)!.battery_percentage);
  });

  it("a restart while those requests wait sends no new ones", async () => {
    const count = (await requests()).length;
    await demo!.stop();
    const clock = await start();
    clock.advance(60_000);
    await idle();
    expect((await requests()).length).toBe(count);
    // The rest of the first minute went on as before: more visits, the battery still moving.
    expect(demo!.activities.every((a) => a.sent.visits === 4 && a.sent.battery === 3 && a.sent.requests === 0)).toBe(true);
  });
});
