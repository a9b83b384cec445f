import type { DB } from "../../index";
import { executeCompiledOnce } from "../../compiled";

import { KIDS_APP_PACKAGE, appTitle } from "../../../core/store";

export { KIDS_APP_PACKAGE };

// ---------------------------------------------------------------- usage

export interface UsagePeriod {
  filter: "day" | "week";
  /** inclusive YYYY-MM-DD */
  from: string;
  /** exclusive YYYY-MM-DD */
  to: string;
  days: number;
}

export interface AppUsageItem {
  packageName: string;
  title: string;
  icon: string | null;
  playStoreCategory: string;
  categoryName: string;
  isAppDisabled: boolean;
  dailyLimit: number;
  enableDailyLimit: boolean;
  timeInMinute: number;
}

export interface CategoryUsageItem {
  category: string;
  name: string;
  isCategoryEnabled: boolean;
  enableDailyLimit: boolean;
  dailyLimitTime: number;
  usedTime: number;
}

export interface ChartRow {
  /** x label: "07" hour (Day) or "Mon" (Week) */
  slot: string;
  values: Record<string, number>;
}

export interface Usage {
  totalUsedTime: number;
  apps: AppUsageItem[];
  categories: CategoryUsageItem[];
  chart: { slots: string[]; categories: { key: string; name: string }[]; rows: ChartRow[] };
  lastUsageAt: string | null;
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const CHART_CATEGORIES = 5;

export function categoryLabel(id: string, names: Map<string, string>): string {
  if (id === "Others") return "Others";
  return (
    names.get(id) ??
    id
      .replace(/_/g, " ")
      .toLowerCase()
      .replace(/^\w/, (c) => c.toUpperCase())
  );
}

/**
 * Most used apps, most used categories and the stacked category chart of one period. Reads the daily
 * rollup for totals and the hour buckets only for the Day chart (24 buckets).
 */
export async function getUsage(db: DB, profileId: string, deviceId: string, period: UsagePeriod): Promise<Usage> {
  // The two largest builders are built and compiled once per phone and period (their only inputs; db/compiled.ts).
  const span = [deviceId, period.filter, period.from, period.to];
  // The categories' names come with the apps (every category listed or charted is one of theirs).
  const [perApp, limits, chartRaw, last] = await Promise.all([
    executeCompiledOnce(db, JSON.stringify(["usage-per-app", ...span]), () =>
      db
        .selectFrom("app_usage_daily as u")
        .leftJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
        .leftJoin("catalog_apps as c", "c.package_name", "u.package_name")
        .leftJoin("store_categories as sc", "sc.id", "pa.play_store_category")
        .select((eb) => [
          "u.package_name",
          eb.fn.sum<number>("u.minutes").as("minutes"),
          eb.fn.max("c.title").as("title"),
          eb.fn.max("c.icon").as("icon"),
          eb.fn.max("pa.play_store_category").as("category"),
          eb.fn.max("sc.name").as("category_name"),
          eb.fn.max("pa.is_app_disabled").as("disabled"),
          eb.fn.max("pa.daily_limit_minutes").as("limit"),
          eb.fn.max("pa.enable_daily_limit").as("enable_limit"),
        ])
        .where("u.device_id", "=", deviceId)
        .where("u.day", ">=", period.from)
        .where("u.day", "<", period.to)
        .groupBy("u.package_name"),
    ),
    db
      .selectFrom("category_limits")
      .select(["category", "enable_daily_limit", "daily_limit_minutes", "is_category_enabled"])
      .where("profile_id", "=", profileId)
      .execute(),
    executeCompiledOnce(db, JSON.stringify(["usage-chart", ...span]), () =>
      period.filter === "day"
        ? db
            .selectFrom("app_usage_hourly as h")
            .leftJoin("profile_apps as pa", (j) =>
              j.onRef("pa.device_id", "=", "h.device_id").onRef("pa.package_name", "=", "h.package_name"),
            )
            .select((eb) => ["h.hour as slot", "pa.play_store_category as category", eb.fn.sum<number>("h.minutes").as("minutes")])
            .where("h.device_id", "=", deviceId)
            .where("h.hour", ">=", period.from)
            .where("h.hour", "<", period.to)
            .groupBy(["h.hour", "pa.play_store_category"])
        : db
            .selectFrom("app_usage_daily as u")
            .leftJoin("profile_apps as pa", (j) =>
              j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"),
            )
            .select((eb) => ["u.day as slot", "pa.play_store_category as category", eb.fn.sum<number>("u.minutes").as("minutes")])
            .where("u.device_id", "=", deviceId)
            .where("u.day", ">=", period.from)
            .where("u.day", "<", period.to)
            .groupBy(["u.day", "pa.play_store_category"]),
    ),
    db.selectFrom("app_usage_hourly").select("hour").where("device_id", "=", deviceId).orderBy("hour", "desc").limit(1).executeTakeFirst(),
  ]);

  const nameOf = new Map<string, string>();
  for (const r of perApp) if (r.category != null && r.category_name != null) nameOf.set(r.category as string, r.category_name as string);
  const apps: AppUsageItem[] = perApp
    .filter((r) => r.package_name !== KIDS_APP_PACKAGE)
    .map((r) => {
      const category = (r.category as string | null) ?? "Others";
      return {
        packageName: r.package_name,
        title: appTitle(r.title as string | null, r.package_name),
        icon: (r.icon as string | null) ?? null,
        playStoreCategory: category,
        categoryName: categoryLabel(category, nameOf),
        isAppDisabled: Boolean(Number(r.disabled ?? 0)),
        dailyLimit: Number(r.limit ?? 0),
        enableDailyLimit: Boolean(Number(r.enable_limit ?? 0)),
        timeInMinute: Number(r.minutes ?? 0),
      };
    })
    .filter((a) => a.timeInMinute > 0)
    .sort((a, b) => b.timeInMinute - a.timeInMinute || a.title.localeCompare(b.title));

  const limitOf = new Map(limits.map((l) => [l.category, l]));
  const perCategory = new Map<string, number>();
  for (const a of apps) perCategory.set(a.playStoreCategory, (perCategory.get(a.playStoreCategory) ?? 0) + a.timeInMinute);
  const categories: CategoryUsageItem[] = [...perCategory.entries()]
    .map(([category, used]) => {
      const l = limitOf.get(category);
      return {
        category,
        name: categoryLabel(category, nameOf),
        isCategoryEnabled: l ? Boolean(l.is_category_enabled) : true,
        enableDailyLimit: l ? Boolean(l.enable_daily_limit) : false,
        dailyLimitTime: l ? Number(l.daily_limit_minutes) : 0,
        usedTime: used,
      };
    })
    .sort((a, b) => b.usedTime - a.usedTime || a.name.localeCompare(b.name));

  // Chart: the top categories keep their own colour, the rest stack as "Other categories".
  const top = categories.slice(0, CHART_CATEGORIES).map((c) => c.category);
  const chartCats = top.map((key) => ({ key, name: categoryLabel(key, nameOf) }));
  const hasRest = categories.length > CHART_CATEGORIES;
  if (hasRest) chartCats.push({ key: "__rest", name: "Other categories" });
  const slots =
    period.filter === "day"
      ? Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0"))
      : Array.from({ length: 7 }, (_, i) => WEEKDAYS[i]);
  const rows: ChartRow[] = slots.map((slot) => ({ slot, values: Object.fromEntries(chartCats.map((c) => [c.key, 0])) }));
  const fromMs = Date.parse(`${period.from}T00:00:00Z`);
  for (const r of chartRaw) {
    const slotStr = String(r.slot);
    const idx =
      period.filter === "day"
        ? Number.parseInt(slotStr.slice(11, 13), 10)
        : Math.round((Date.parse(`${slotStr.slice(0, 10)}T00:00:00Z`) - fromMs) / 86_400_000);
    const row = rows[idx];
    if (!row) continue;
    const cat = (r.category as string | null) ?? "Others";
    const key = top.includes(cat) ? cat : hasRest ? "__rest" : null;
    if (!key) continue;
    row.values[key] = (row.values[key] ?? 0) + Number(r.minutes ?? 0);
  }

  return {
    totalUsedTime: apps.reduce((s, a) => s + a.timeInMinute, 0),
    apps,
    categories,
    chart: { slots, categories: chartCats, rows },
    lastUsageAt: last?.hour ?? null,
  };
}
