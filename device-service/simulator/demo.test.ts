import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../db/seed/index";
import { applyPolicy } from "../policy/store";
import { startHarness, type Harness } from "../../server/harness.testing";
import { startDemoPhones, type DemoPhones } from "./demo";

const MINUTE = 60_000;

/**
 * Issue 9 item 10: the demo phones of `npm start` report usage the server accepts: never more than 60 minutes
 * in one hour for a phone, together with what the seed already holds for that hour.
 */
describe("demo phones' usage", () => {
  let h: Harness;
  let demo: DemoPhones;
  // Ten past noon today (or yesterday, before noon): the seed has usage in that hour already.
  const today = new Date();
  today.setUTCHours(12, 10, 0, 0);
  const seededAt = today.getTime() <= Date.now() ? today : new Date(today.getTime() - 86_400_000);

  beforeAll(async () => {
    h = await startHarness({ seed: false });
    await seedDemo(h.tdb.db, seededAt);
    // As server/web.ts starts them: each phone gets its policy, and its usage goes through its enforcer.
    demo = await startDemoPhones(h.tdb.db, h.url, () => {}, { applyPolicy: (deviceId) => applyPolicy(h.runtime.deps, deviceId) });
    expect(demo.phones).toHaveLength(2);
    expect(demo.activities).toEqual([]); // no demo activity unless asked for (demo-activity.test.ts, SIMULATOR_DEMO_ACTIVITY)
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
    await h?.close();
  });

  it("an hour and a half of minutes, every report acknowledged, no hour over 60 minutes", async () => {
    for (let i = 0; i < 90; i++) await demo.reportUsage(new Date(seededAt.getTime() + i * MINUTE));
    const hours = await h.tdb.db
      .selectFrom("app_usage_hourly")
      .select(["device_id", "hour", sql<number>`sum(minutes)`.as("minutes")])
      .where("hour", ">=", new Date(seededAt.getTime() - 10 * MINUTE).toISOString())
      .groupBy(["device_id", "hour"])
      .execute();
    // Both phones, both hours: the noon hour gained a minute a minute on top of the seed's first ten (at most
    // 60 in all), the next hour holds its 40 minutes so far, unless the phone's policy stopped every app the kid
    // uses on the way (demo-enforced.test.ts): then the phone says why.
    expect(hours).toHaveLength(4);
    for (const r of hours) {
      const minutes = Number(r.minutes);
      const phone = demo.phones.find((p) => p.deviceId === r.device_id)!;
      const used = [...phone.state.installed].filter((p) => !p.startsWith("com.kidsportal")).slice(0, 3);
      const stopped = used.map((p) => phone.enforcer.blockedBy(p));
      const full = r.hour.slice(11, 13) === "12" ? 50 : 40;
      expect(minutes).toBeLessThanOrEqual(r.hour.slice(11, 13) === "12" ? 60 : 40);
      if (minutes < full) expect(stopped, `${phone.serialNumber} ${r.hour}: ${minutes} minutes`).not.toContain(null);
    }
  });

  it("without the demo activity the phones only use apps: no requests, visits or notifications of their own", async () => {
    const since = seededAt.toISOString();
    expect(await h.tdb.db.selectFrom("app_requests").select("id").where("message_id", "is not", null).execute()).toEqual([]);
    expect(await h.tdb.db.selectFrom("browser_logs").select("id").execute()).toEqual([]);
    expect(await h.tdb.db.selectFrom("notifications").select("id").where("created_at", ">", since).execute()).toEqual([]);
  });
});
