import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay, safeTimeZone } from "../../core/zoned-time";
import { seedDemo } from "../../db/seed/index";
import type { PolicyDocument } from "../policy/build";
import { applyPolicy } from "../policy/store";
import { startHarness, waitFor, type Harness } from "../../server/harness.testing";
import { startDemoPhones, type DemoPhones } from "./demo";

const MINUTE = 60_000;
const LEO = "DEMO-LEO-0002";

/**
 * Issue 12: the demo phones' own simulated usage goes through the phone's enforcer. An app the parent disabled
 * accrues no minutes; an app with a daily limit is used up to the limit and no further, and is then stopped
 * with reason Overuse; the others go on.
 */
describe("demo phones' usage obeys the policy", () => {
  let h: Harness;
  let demo: DemoPhones;
  const today = new Date();
  today.setUTCHours(12, 10, 0, 0);
  const start = today.getTime() <= Date.now() ? today : new Date(today.getTime() - 86_400_000);

  beforeAll(async () => {
    h = await startHarness({ seed: false });
    await seedDemo(h.tdb.db, start);
    demo = await startDemoPhones(h.tdb.db, h.url, () => {}, { applyPolicy: (deviceId) => applyPolicy(h.runtime.deps, deviceId) });
    expect(demo.phones).toHaveLength(2);
  }, 60_000);
  afterAll(async () => {
    await demo?.stop();
    await h?.close();
  });

  it("a disabled app gains nothing, a limited one stops at its limit (Overuse), the third goes on", async () => {
    const phone = demo.phones.find((p) => p.serialNumber === LEO)!;
    const { deviceId } = await h.kid(LEO);
    // The apps the demo kid uses, as demo.ts picks them.
    const [off, limited, free] = [...phone.state.installed].filter((p) => !p.startsWith("com.kidsportal")).slice(0, 3) as [
      string,
      string,
      string,
    ];
    const policy = () => phone.state.policy as PolicyDocument | undefined;
    await waitFor(async () => policy()?.apps);
    const day = localDay(start, safeTimeZone(policy()!.timeZone));
    const usedToday = (pkg: string) => phone.enforcer.usageOn(day)[pkg] ?? 0;
    const before = { off: usedToday(off), limited: usedToday(limited), free: usedToday(free) };
    const limit = 15 * (Math.floor(before.limited / 15) + 1);

    const parent = await h.tdb.db
      .selectFrom("parents")
      .innerJoin("kid_profiles as k", "k.parent_id", "parents.id")
      .select(["parents.id", "parents.email"])
      .where("k.id", "=", (await h.kid(LEO)).profileId)
      .executeTakeFirstOrThrow();
    const c = h.caller({ ...parent, role: "parent" });
    await c.apps.setEnabled({ serialNumber: LEO, packageName: off, enabled: false });
    await c.apps.setLimit({ serialNumber: LEO, packageName: limited, enableDailyLimit: true, dailyLimitTime: limit });
    await waitFor(
      async () =>
        policy()?.apps.find((a) => a.packageName === limited)?.dailyLimitMinutes === limit && phone.enforcer.blockedBy(off) === "Manually",
    );
    const hours = async (pkg: string) =>
      (
        await h.tdb.db
          .selectFrom("app_usage_hourly")
          .select(["hour", "minutes"])
          .where("device_id", "=", deviceId)
          .where("package_name", "=", pkg)
          .orderBy("hour")
          .execute()
      ).map((r) => `${r.hour}=${r.minutes}`);
    const offHours = await hours(off);

    for (let i = 0; i < 90; i++) await demo.reportUsage(new Date(start.getTime() + i * MINUTE));

    expect(await hours(off)).toEqual(offHours);
    expect(usedToday(off)).toBe(before.off);
    expect(usedToday(limited)).toBe(limit);
    expect(phone.enforcer.blockedBy(limited)).toBe("Overuse");
    const row = await waitFor(async () => {
      const r = await h.tdb.db
        .selectFrom("profile_apps")
        .select(["is_app_disabled", "disabled_type"])
        .where("device_id", "=", deviceId)
        .where("package_name", "=", limited)
        .executeTakeFirstOrThrow();
      return r.disabled_type === "Overuse" ? r : null;
    });
    expect(row.is_app_disabled).toBe(1);
    // The minutes the limited app could not take went to the app still allowed.
    expect(usedToday(free)).toBeGreaterThan(before.free + (limit - before.limited));
  });
});
