import { appTitle } from "../../core/store";
import type { DB } from "../index";
import type { UsagePeriod } from "./dashboard/usage";
import { limitDay } from "./usage-today";

/**
 * Read model of /category: the kid's limit for one store category, its use in the period, the stacked chart by
 * app and the most used apps in it. null for a category that does not exist. Callers checked the kid and device.
 */
const CHART_APPS = 5;
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

export async function getCategoryDetail(db: DB, profileId: string, deviceId: string, category: string, period: UsagePeriod) {
  // The category's name is read beside the rest (one wait, not two); an unknown id still answers null.
  const naming =
    category === "Others"
      ? Promise.resolve({ name: "Others" })
      : db.selectFrom("store_categories").select("name").where("id", "=", category).executeTakeFirst();
  const appsInCat = db
    .selectFrom("profile_apps")
    .select("package_name")
    .where("device_id", "=", deviceId)
    .where("play_store_category", "=", category);
  const [known, limit, apps, usage, today] = await Promise.all([
    naming,
    db.selectFrom("category_limits").selectAll().where("profile_id", "=", profileId).where("category", "=", category).executeTakeFirst(),
    db
      .selectFrom("profile_apps as pa")
      .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.package_name", "pa.enable_daily_limit", "pa.daily_limit_minutes", "pa.is_app_disabled", "c.title", "c.icon"])
      .where("pa.device_id", "=", deviceId)
      .where("pa.play_store_category", "=", category)
      .execute(),
    period.filter === "day"
      ? db
          .selectFrom("app_usage_hourly")
          .select(["package_name", "hour as slot", "minutes"])
          .where("device_id", "=", deviceId)
          .where("package_name", "in", appsInCat)
          .where("hour", ">=", period.from)
          .where("hour", "<", period.to)
          .execute()
      : db
          .selectFrom("app_usage_daily")
          .select(["package_name", "day as slot", "minutes"])
          .where("device_id", "=", deviceId)
          .where("package_name", "in", appsInCat)
          .where("day", ">=", period.from)
          .where("day", "<", period.to)
          .execute(),
    db
      .selectFrom("app_usage_daily")
      .select((eb) => eb.fn.sum<number>("minutes").as("minutes"))
      .where("device_id", "=", deviceId)
      .where("package_name", "in", appsInCat)
      .where("day", "=", limitDay())
      .executeTakeFirst(),
  ]);
  if (!known) return null;
  const perApp = new Map<string, number>();
  for (const u of usage) perApp.set(u.package_name, (perApp.get(u.package_name) ?? 0) + Number(u.minutes));
  const appList = apps
    .map((a) => ({
      packageName: a.package_name,
      title: appTitle(a.title, a.package_name),
      icon: a.icon,
      timeInMinute: perApp.get(a.package_name) ?? 0,
      enableDailyLimit: a.enable_daily_limit === 1,
      dailyLimit: a.daily_limit_minutes,
      isAppDisabled: a.is_app_disabled === 1,
    }))
    .sort((a, b) => b.timeInMinute - a.timeInMinute || a.title.localeCompare(b.title));
  // Chart: the top apps stack in their own colour, the rest as "Other apps".
  const used = appList.filter((a) => a.timeInMinute > 0);
  const top = used.slice(0, CHART_APPS);
  const keys = top.map((a) => ({ key: a.packageName, name: a.title }));
  if (used.length > CHART_APPS) keys.push({ key: "__rest", name: "Other apps" });
  const slots = period.filter === "day" ? Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0")) : WEEKDAYS;
  const rows = slots.map((slot) => ({ slot, values: Object.fromEntries(keys.map((k) => [k.key, 0])) as Record<string, number> }));
  const fromMs = Date.parse(`${period.from}T00:00:00Z`);
  const topSet = new Set(top.map((a) => a.packageName));
  for (const u of usage) {
    const s = String(u.slot);
    const i =
      period.filter === "day"
        ? Number.parseInt(s.slice(11, 13), 10)
        : Math.round((Date.parse(`${s.slice(0, 10)}T00:00:00Z`) - fromMs) / 86_400_000);
    const key = topSet.has(u.package_name) ? u.package_name : "__rest";
    if (rows[i] && key in rows[i].values) rows[i].values[key] += Number(u.minutes);
  }
  return {
    category,
    name: known.name,
    enableDailyLimit: limit?.enable_daily_limit === 1,
    dailyLimitTime: limit?.daily_limit_minutes ?? 0,
    isCategoryEnabled: limit ? limit.is_category_enabled === 1 : true,
    usedTime: appList.reduce((s, a) => s + a.timeInMinute, 0),
    usedToday: Number(today?.minutes ?? 0),
    apps: appList,
    chart: { slots, categories: keys, rows },
  };
}
