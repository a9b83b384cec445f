import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { seedDemo } from "../seed/index";
import { createTestDb, DIALECTS, type TestDb } from "../testing";
import {
  countUnreadNotifications,
  getDeviceDetails,
  getGlobalDailyLimit,
  getKidOverview,
  getLocationSettings,
  getUsage,
  listNotifications,
  listPendingRatings,
  markNotificationsRead,
  markRatingsShown,
  setReportType,
} from "./dashboard";

const NOW = new Date("2026-11-21T18:30:00Z");

describe.each(DIALECTS)("dashboard queries on %s", (dialect) => {
  let t: TestDb;
  let mia: { profileId: string; deviceId: string };
  let leo: { profileId: string; deviceId: string };
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await seedDemo(t.db, NOW);
    const rows = await t.db.selectFrom("devices").innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id").select(["devices.id", "devices.profile_id", "kid_profiles.name"]).execute();
    const by = (n: string) => rows.find((r) => r.name === n)!;
    mia = { profileId: by("Mia").profile_id, deviceId: by("Mia").id };
    leo = { profileId: by("Leo").profile_id, deviceId: by("Leo").id };
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("reads a kid with device, status and last location", async () => {
    const o = await getKidOverview(t.db, leo.profileId);
    expect(o?.profile.name).toBe("Leo");
    expect(o?.device).toMatchObject({ serialNumber: "DEMO-LEO-0002", batteryPercentage: 15, kidsAppStatus: "Unhealthy", additionalData: "Usage access, Display over other apps" });
    expect(o?.device?.lastLocation?.latitude).toBeCloseTo(51.5079);
    expect(await getKidOverview(t.db, "nope")).toBeNull();
  });

  it("sums a day and a week consistently across apps, categories and the chart", async () => {
    for (const period of [
      { filter: "day" as const, from: "2026-11-20", to: "2026-11-21", days: 1 },
      { filter: "week" as const, from: "2026-11-09", to: "2026-11-16", days: 7 },
    ]) {
      const u = await getUsage(t.db, mia.profileId, mia.deviceId, period);
      const expected = await t.db
        .selectFrom("app_usage_daily")
        .select(sql<number>`sum(minutes)`.as("m"))
        .where("device_id", "=", mia.deviceId)
        .where("day", ">=", period.from)
        .where("day", "<", period.to)
        .executeTakeFirstOrThrow();
      expect(u.totalUsedTime).toBe(Number(expected.m));
      expect(u.totalUsedTime).toBeGreaterThan(0);
      expect(u.categories.reduce((s, c) => s + c.usedTime, 0)).toBe(u.totalUsedTime);
      const chartTotal = u.chart.rows.reduce((s, r) => s + Object.values(r.values).reduce((a, b) => a + b, 0), 0);
      expect(chartTotal).toBe(u.totalUsedTime);
      expect(u.chart.slots).toHaveLength(period.filter === "day" ? 24 : 7);
      for (let i = 1; i < u.apps.length; i++) expect(u.apps[i - 1].timeInMinute).toBeGreaterThanOrEqual(u.apps[i].timeInMinute);
    }
  });

  it("labels manually installed apps 'Others' and reads category limits", async () => {
    const u = await getUsage(t.db, mia.profileId, mia.deviceId, { filter: "week", from: "2026-10-01", to: "2026-11-22", days: 52 });
    expect(u.apps.some((a) => a.playStoreCategory === "Others" && a.packageName.startsWith("org.school.homework"))).toBe(true);
    expect(u.apps.some((a) => a.packageName === "com.kidsportal.kidsapp")).toBe(false);
    expect(u.categories.some((c) => c.enableDailyLimit && c.dailyLimitTime === 60)).toBe(true);
  });

  it("pages notifications and resets the unread count on opening", async () => {
    expect(await countUnreadNotifications(t.db, mia.profileId)).toBe(4);
    const page1 = await listNotifications(t.db, mia.profileId, 20);
    expect(page1.items).toHaveLength(20);
    expect(page1.total).toBe(26);
    expect((await listNotifications(t.db, mia.profileId, 40)).items).toHaveLength(26);
    await markNotificationsRead(t.db, mia.profileId, NOW);
    expect(await countUnreadNotifications(t.db, mia.profileId)).toBe(0);
    expect(await countUnreadNotifications(t.db, leo.profileId)).toBe(4);
  });

  it("lists pending ratings until the popup is closed", async () => {
    const before = await listPendingRatings(t.db, leo.deviceId);
    expect(before.length).toBeGreaterThan(0);
    await markRatingsShown(t.db, leo.deviceId, new Date(NOW.getTime() + 1000));
    expect(await listPendingRatings(t.db, leo.deviceId)).toHaveLength(0);
    await markRatingsShown(t.db, leo.deviceId, new Date(NOW.getTime() + 2000));
    expect(await listPendingRatings(t.db, leo.deviceId)).toHaveLength(0);
    expect((await listPendingRatings(t.db, mia.deviceId)).length).toBeGreaterThan(0);
  });

  it("reads settings and device details, writes the report frequency", async () => {
    expect(await getGlobalDailyLimit(t.db, mia.deviceId)).toBe(180);
    expect(await getLocationSettings(t.db, mia.deviceId)).toEqual({ enableLocationTracking: true, locationTrackingInterval: 15 });
    const d = await getDeviceDetails(t.db, mia.deviceId);
    expect(d).toMatchObject({ serial_number: "DEMO-MIA-0001", brand: "Samsung", total_ram: "4 GB", battery_percentage: 76 });
    const parent = await t.db.selectFrom("parents").select("id").where("email", "=", "demo@kids-portal.test").executeTakeFirstOrThrow();
    await setReportType(t.db, parent.id, "Monthly");
    expect((await t.db.selectFrom("parents").select("kids_report_type").where("id", "=", parent.id).executeTakeFirstOrThrow()).kids_report_type).toBe("Monthly");
  });
});
