import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { explainDevice } from "./explain";
import { startHarness, type Harness } from "../server/harness.testing";

// The portal explains with the phone's own decision (issue 21 item 7): the newest policy and today's usage.
const MIA = "DEMO-MIA-0001";

describe.each(DIALECTS)("explaining the decision on %s", (dialect) => {
  let h: Harness;
  let mia: { profileId: string; deviceId: string };
  let pkg: string;
  beforeAll(async () => {
    h = await startHarness({ dialect });
    mia = await h.kid(MIA);
    const r = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("is_installed", "=", 1)
      .where("is_app_disabled", "=", 0)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    pkg = r.package_name;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("says how many minutes are left today from the limit and today's usage in the family's zone", async () => {
    const now = new Date("2026-12-14T10:30:00Z");
    await h.caller(h.demo).time.setTimeZone({ timeZone: "Europe/London" });
    await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: pkg, enableDailyLimit: true, dailyLimitTime: 60 });
    await h.tdb.db
      .deleteFrom("app_usage_hourly")
      .where("device_id", "=", mia.deviceId)
      .where("hour", ">=", "2026-12-13T00:00:00.000Z")
      .execute();
    await h.tdb.db
      .insertInto("app_usage_hourly")
      .values([
        { device_id: mia.deviceId, package_name: pkg, hour: "2026-12-14T09:00:00.000Z", minutes: 20 },
        { device_id: mia.deviceId, package_name: pkg, hour: "2026-12-14T10:00:00.000Z", minutes: 15 },
        // Yesterday's use does not count.
        { device_id: mia.deviceId, package_name: pkg, hour: "2026-12-13T23:00:00.000Z", minutes: 40 },
      ])
      .execute();
    const e = await explainDevice(h.tdb.db, mia.deviceId, now);
    expect(e.timeZone).toBe("Europe/London");
    expect(e.decisions[pkg]).toMatchObject({ blocked: false, minutesLeft: 25, limitedBy: "app" });
    expect(e.validUntil?.toISOString()).toBe("2026-12-15T00:00:00.000Z");
  });

  it("a Bedtime window containing now blocks with its name and end, and the explanation is valid until it ends", async () => {
    const now = new Date("2026-12-14T21:30:00Z");
    const r = await h.caller(h.demo).time.saveSchedule({
      profileId: mia.profileId,
      schedule: { name: "Bedtime", days: [0, 1, 2, 3, 4, 5, 6], start: 21 * 60, end: 7 * 60, blocksAll: true, categories: [], apps: [] },
    });
    const e = await explainDevice(h.tdb.db, mia.deviceId, now);
    expect(e.decisions[pkg]).toMatchObject({ blocked: true, reason: "Cronjob", scheduleName: "Bedtime" });
    expect(e.decisions[pkg]!.until!.toISOString()).toBe("2026-12-15T07:00:00.000Z");
    expect(e.decisions["com.kidsportal.kidsapp"]?.blocked ?? false).toBe(false);
    expect(e.validUntil?.toISOString()).toBe("2026-12-15T00:00:00.000Z");
    await h.caller(h.demo).time.deleteSchedule({ profileId: mia.profileId, id: r.id });
  });

  it("a phone that was never sent a policy enforces nothing: nothing to explain", async () => {
    const other = await h.kid(h.other.serialNumber);
    await h.tdb.db.deleteFrom("device_policies").where("device_id", "=", other.deviceId).execute();
    expect(await explainDevice(h.tdb.db, other.deviceId)).toEqual({ timeZone: "UTC", decisions: {}, validUntil: null });
  });
});
