import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { DIALECTS } from "../../index.testing";
import { useDemoFamily } from "./dashboard.testing";
import { getUsage } from "./usage";

describe.each(DIALECTS)("dashboard usage query on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("sums a day and a week consistently across apps, categories and the chart", async () => {
    const { t, mia } = f;
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
    const { t, mia } = f;
    const u = await getUsage(t.db, mia.profileId, mia.deviceId, { filter: "week", from: "2026-10-01", to: "2026-11-22", days: 52 });
    expect(u.apps.some((a) => a.playStoreCategory === "Others" && a.packageName.startsWith("org.school.homework"))).toBe(true);
    expect(u.apps.some((a) => a.packageName === "com.kidsportal.kidsapp")).toBe(false);
    expect(u.categories.some((c) => c.enableDailyLimit && c.dailyLimitTime === 60)).toBe(true);
  });
});
