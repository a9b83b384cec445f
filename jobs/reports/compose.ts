import { dayName, localMidnight, periodDays, type Period } from "../../core/report-periods";
import { categoryLabel } from "../../db/queries/dashboard/usage";
import type { HourUsage, KidLimits } from "../../db/queries/reports";
import type { ReportApp, ReportCategory, ReportDay, ReportLimitHit } from "../../db/schema-reports";

export const TOP_APPS = 10;
export const TOP_CATEGORIES = 6;

/**
 * Aggregates the period's hour buckets in the family's time zone: minutes per local day, per app and per
 * category, and every day a limit in force was reached (app, category or the phone's global limit). An hour
 * bucket belongs to the local day its start falls in.
 */
export function composeReport(period: Period, tz: string, hours: HourUsage[], limits: KidLimits) {
  const days = periodDays(period);
  const starts = days.map((d) => localMidnight(d, tz).getTime());
  const dayIndex = (hour: string) => {
    const t = Date.parse(hour);
    let i = starts.length - 1;
    while (i > 0 && starts[i] > t) i--;
    return i;
  };
  const perDay = days.map(() => 0);
  const perApp = new Map<string, number>();
  const perCategory = new Map<string, number>();
  const perAppDay = new Map<string, number>();
  const perCategoryDay = new Map<string, number>();
  for (const h of hours) {
    const i = dayIndex(h.hour);
    const app = limits.apps.get(h.packageName);
    const category = app?.category ?? "Others";
    perDay[i] += h.minutes;
    perApp.set(h.packageName, (perApp.get(h.packageName) ?? 0) + h.minutes);
    perCategory.set(category, (perCategory.get(category) ?? 0) + h.minutes);
    perAppDay.set(`${h.packageName}|${i}`, (perAppDay.get(`${h.packageName}|${i}`) ?? 0) + h.minutes);
    perCategoryDay.set(`${category}|${i}`, (perCategoryDay.get(`${category}|${i}`) ?? 0) + h.minutes);
  }
  const dailyUsage: ReportDay[] = days.map((day, i) => ({ day, name: dayName(day, period.kind), minutes: perDay[i] }));
  const topApps: ReportApp[] = [...perApp.entries()]
    .map(([packageName, minutes]) => {
      const a = limits.apps.get(packageName);
      return { packageName, name: a?.name ?? packageName, icon: a?.icon ?? null, minutes };
    })
    .filter((a) => a.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes || a.name.localeCompare(b.name))
    .slice(0, TOP_APPS);
  const topCategories: ReportCategory[] = [...perCategory.entries()]
    .map(([category, minutes]) => ({ category, name: categoryLabel(category, limits.categoryNames), minutes }))
    .filter((c) => c.minutes > 0)
    .sort((a, b) => b.minutes - a.minutes || a.name.localeCompare(b.name));

  const limitsHit: ReportLimitHit[] = [];
  days.forEach((day, i) => {
    if (limits.device > 0 && perDay[i] >= limits.device)
      limitsHit.push({ kind: "device", name: "Phone daily limit", day, minutes: perDay[i], limit: limits.device });
    for (const [category, c] of limits.categories) {
      const used = perCategoryDay.get(`${category}|${i}`) ?? 0;
      if (used >= c.limit) limitsHit.push({ kind: "category", name: c.name, day, minutes: used, limit: c.limit });
    }
    for (const [pkg, a] of limits.apps) {
      const used = perAppDay.get(`${pkg}|${i}`) ?? 0;
      if (a.limit > 0 && used >= a.limit) limitsHit.push({ kind: "app", name: a.name, day, minutes: used, limit: a.limit });
    }
  });
  const total = perDay.reduce((a, b) => a + b, 0);
  return { total, dailyUsage, topApps, topCategories: topCategories.slice(0, TOP_CATEGORIES), allCategories: topCategories, limitsHit };
}
