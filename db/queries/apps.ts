import { appTitle } from "../../core/store";
import type { DB } from "../index";
import type { UsagePeriod } from "./dashboard/usage";
import { limitDay } from "./usage-today";

/**
 * Read models of /application and the kid's apps list. Callers have checked kid access and that the device is
 * the kid's (requireKidDevice); everything here is scoped by the device id it is given.
 */

/** The app as the kid's phone has it plus its store listing; null when it is neither on this phone nor in the store. */
export async function getAppDetail(db: DB, deviceId: string, packageName: string) {
  const [catalog, app, usedToday] = await Promise.all([
    db.selectFrom("catalog_apps").selectAll().where("package_name", "=", packageName).executeTakeFirst(),
    db.selectFrom("profile_apps").selectAll().where("device_id", "=", deviceId).where("package_name", "=", packageName).executeTakeFirst(),
    db
      .selectFrom("app_usage_daily")
      .select("minutes")
      .where("device_id", "=", deviceId)
      .where("package_name", "=", packageName)
      .where("day", "=", limitDay())
      .executeTakeFirst(),
  ]);
  if (!catalog && !app) return null;
  const category = app?.play_store_category ?? catalog?.genre_id ?? "Others";
  const categoryName =
    category === "Others"
      ? "Others"
      : ((await db.selectFrom("store_categories").select("name").where("id", "=", category).executeTakeFirst())?.name ?? category);
  return {
    packageName,
    /** The app's row on the phone (null: not on it). */
    id: app?.id ?? null,
    catalog: catalog ?? null,
    appExist: Boolean(app),
    isAppInstalled: app?.is_installed === 1,
    isSystemApp: catalog?.is_system_app === 1,
    isAppDisabled: app?.is_app_disabled === 1,
    appEnabledDisabledType: app?.is_app_disabled === 1 ? (app.disabled_type ?? "Manually") : null,
    enableDailyLimit: app?.enable_daily_limit === 1,
    dailyLimitTime: app?.daily_limit_minutes ?? 0,
    installationFailureReason: app?.installation_failure_reason ?? null,
    usedToday: Number(usedToday?.minutes ?? 0),
    category,
    categoryName,
  };
}

const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/** One app's usage in the period as chart rows (24 hours or 7 days) and its total. */
export async function getAppUsageChart(db: DB, deviceId: string, packageName: string, period: UsagePeriod) {
  const rows =
    period.filter === "day"
      ? await db
          .selectFrom("app_usage_hourly")
          .select(["hour as slot", "minutes"])
          .where("device_id", "=", deviceId)
          .where("package_name", "=", packageName)
          .where("hour", ">=", period.from)
          .where("hour", "<", period.to)
          .execute()
      : await db
          .selectFrom("app_usage_daily")
          .select(["day as slot", "minutes"])
          .where("device_id", "=", deviceId)
          .where("package_name", "=", packageName)
          .where("day", ">=", period.from)
          .where("day", "<", period.to)
          .execute();
  const slots = period.filter === "day" ? Array.from({ length: 24 }, (_, h) => String(h).padStart(2, "0")) : WEEKDAYS;
  const values = slots.map(() => 0);
  const fromMs = Date.parse(`${period.from}T00:00:00Z`);
  for (const r of rows) {
    const s = String(r.slot);
    const i =
      period.filter === "day"
        ? Number.parseInt(s.slice(11, 13), 10)
        : Math.round((Date.parse(`${s.slice(0, 10)}T00:00:00Z`) - fromMs) / 86_400_000);
    if (i >= 0 && i < values.length) values[i] += Number(r.minutes);
  }
  return {
    total: values.reduce((a, b) => a + b, 0),
    chart: {
      slots,
      // Keyed by the package name: the app has the same colour here as on its category's page.
      categories: [{ key: packageName, name: "Screen time" }],
      rows: slots.map((slot, i) => ({ slot, values: { [packageName]: values[i] } })),
    },
  };
}

/** Every installed app of the phone with today's usage, limit and state; optional text search and category filter. */
export async function listKidApps(db: DB, deviceId: string, opts: { q?: string; category?: string } = {}) {
  let query = db
    .selectFrom("profile_apps as pa")
    .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
    .leftJoin("store_categories as sc", "sc.id", "pa.play_store_category")
    .leftJoin("app_usage_daily as u", (j) =>
      j.onRef("u.device_id", "=", "pa.device_id").onRef("u.package_name", "=", "pa.package_name").on("u.day", "=", limitDay()),
    )
    .select([
      "pa.id",
      "pa.package_name",
      "pa.play_store_category",
      "pa.enable_daily_limit",
      "pa.daily_limit_minutes",
      "pa.is_app_disabled",
      "pa.disabled_type",
      "c.title",
      "c.icon",
      "sc.name as categoryName",
      "u.minutes",
    ])
    .where("pa.device_id", "=", deviceId)
    .where("pa.is_installed", "=", 1);
  if (opts.category) query = query.where("pa.play_store_category", "=", opts.category);
  const rows = await query.execute();
  const q = opts.q?.trim().toLowerCase();
  return rows
    .map((r) => ({
      id: r.id,
      packageName: r.package_name,
      title: appTitle(r.title, r.package_name),
      icon: r.icon,
      category: r.play_store_category,
      categoryName: r.play_store_category === "Others" ? "Others" : (r.categoryName ?? r.play_store_category),
      enableDailyLimit: r.enable_daily_limit === 1,
      dailyLimit: r.daily_limit_minutes,
      isAppDisabled: r.is_app_disabled === 1,
      disabledType: r.is_app_disabled === 1 ? (r.disabled_type ?? "Manually") : null,
      usedToday: Number(r.minutes ?? 0),
    }))
    .filter((a) => !q || a.title.toLowerCase().includes(q) || a.packageName.toLowerCase().includes(q))
    .sort((a, b) => b.usedToday - a.usedToday || a.title.localeCompare(b.title));
}
