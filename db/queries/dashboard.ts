import { sql } from "kysely";
import type { DB } from "../index";
import { nowIso } from "./ids";

/**
 * Read models of the kid dashboard and the device pages. Callers have already checked kid access
 * (requireKidAccess); every function here is scoped by the profile or device id it is given.
 */

export const RATING_SHOWN_KEY = "RatingPromptShownAt";
export const GLOBAL_DAILY_LIMIT_KEY = "GlobalDailyLimit";
const KIDS_APP_PACKAGE = "com.kidsportal.kidsapp";

export interface KidOverview {
  profile: {
    id: string;
    name: string;
    birthMonth: number;
    birthYear: number;
    sleepMode: boolean;
    hasPicture: boolean;
    updatedAt: string;
  };
  device: {
    id: string;
    serialNumber: string;
    appVersion: string | null;
    brand: string | null;
    model: string | null;
    protectionEnabled: boolean;
    allowFullDeviceAccess: boolean;
    enableLocationMapDisplay: boolean;
    lastActivationAt: string | null;
    batteryPercentage: number | null;
    batteryCheckedAt: string | null;
    wifiConnected: boolean;
    kidsAppStatus: string;
    additionalData: string | null;
    online: boolean;
    statusUpdatedAt: string | null;
    lastLocation: { latitude: number; longitude: number; deviceTime: string } | null;
  } | null;
  totalDevices: number;
}

/** The kid's profile with its (first) device, its live status and its last location. */
export async function getKidOverview(db: DB, profileId: string): Promise<KidOverview | null> {
  // Profile, devices and the first device's last location in parallel (one round trip on PostgreSQL).
  const [profile, devices, loc] = await Promise.all([
    db
      .selectFrom("kid_profiles")
      .select(["id", "name", "birth_month", "birth_year", "sleep_mode", "updated_at", sql<number>`case when picture is null then 0 else 1 end`.as("has_picture")])
      .where("id", "=", profileId)
      .executeTakeFirst(),
    db
      .selectFrom("devices")
      .leftJoin("device_status", "device_status.device_id", "devices.id")
      .select([
        "devices.id",
        "devices.serial_number",
        "devices.app_version",
        "devices.brand",
        "devices.model",
        "devices.protection_enabled",
        "devices.allow_full_device_access",
        "devices.enable_location_map_display",
        "devices.last_activation_at",
        "device_status.battery_percentage",
        "device_status.battery_checked_at",
        "device_status.wifi_connected",
        "device_status.kids_app_status",
        "device_status.additional_data",
        "device_status.online",
        "device_status.updated_at as status_updated_at",
        "device_status.app_version as status_app_version",
      ])
      .where("devices.profile_id", "=", profileId)
      .orderBy("devices.created_at")
      .orderBy("devices.id")
      .execute(),
    db
      .selectFrom("device_locations")
      .select(["device_id", "latitude", "longitude", "device_time"])
      .where("device_id", "=", (eb) =>
        eb.selectFrom("devices").select("devices.id").where("devices.profile_id", "=", profileId).orderBy("devices.created_at").orderBy("devices.id").limit(1),
      )
      .orderBy("device_time", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!profile) return null;
  const d = devices[0];
  const lastLocation: NonNullable<KidOverview["device"]>["lastLocation"] =
    d && loc && loc.device_id === d.id ? { latitude: Number(loc.latitude), longitude: Number(loc.longitude), deviceTime: loc.device_time } : null;
  return {
    profile: {
      id: profile.id,
      name: profile.name,
      birthMonth: profile.birth_month,
      birthYear: profile.birth_year,
      sleepMode: Boolean(profile.sleep_mode),
      hasPicture: Boolean(Number(profile.has_picture)),
      updatedAt: profile.updated_at,
    },
    device: d
      ? {
          id: d.id,
          serialNumber: d.serial_number,
          appVersion: d.status_app_version ?? d.app_version,
          brand: d.brand,
          model: d.model,
          protectionEnabled: Boolean(d.protection_enabled),
          allowFullDeviceAccess: Boolean(d.allow_full_device_access),
          enableLocationMapDisplay: Boolean(d.enable_location_map_display),
          lastActivationAt: d.last_activation_at,
          batteryPercentage: d.battery_percentage == null ? null : Number(d.battery_percentage),
          batteryCheckedAt: d.battery_checked_at ?? null,
          wifiConnected: Boolean(d.wifi_connected),
          kidsAppStatus: d.kids_app_status ?? "Unknown",
          additionalData: d.additional_data ?? null,
          online: Boolean(d.online),
          statusUpdatedAt: d.status_updated_at ?? null,
          lastLocation,
        }
      : null,
    totalDevices: devices.length,
  };
}

/** The device with this serial number, only when it belongs to this kid. */
export async function findKidDevice(db: DB, profileId: string, serialNumber: string) {
  return db.selectFrom("devices").selectAll().where("serial_number", "=", serialNumber).where("profile_id", "=", profileId).executeTakeFirst();
}

export async function getKidPicture(db: DB, profileId: string) {
  return db.selectFrom("kid_profiles").select(["picture", "picture_mime", "updated_at"]).where("id", "=", profileId).executeTakeFirst();
}

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

function categoryLabel(id: string, names: Map<string, string>): string {
  if (id === "Others") return "Others";
  return names.get(id) ?? id.replace(/_/g, " ").toLowerCase().replace(/^\w/, (c) => c.toUpperCase());
}

/**
 * Most used apps, most used categories and the stacked category chart of one period. Reads the daily
 * rollup for totals and the hour buckets only for the Day chart (24 buckets).
 */
export async function getUsage(db: DB, profileId: string, deviceId: string, period: UsagePeriod): Promise<Usage> {
  const [perApp, names, limits, chartRaw, last] = await Promise.all([
    db
      .selectFrom("app_usage_daily as u")
      .leftJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
      .leftJoin("catalog_apps as c", "c.package_name", "u.package_name")
      .select((eb) => [
        "u.package_name",
        eb.fn.sum<number>("u.minutes").as("minutes"),
        eb.fn.max("c.title").as("title"),
        eb.fn.max("c.icon").as("icon"),
        eb.fn.max("pa.play_store_category").as("category"),
        eb.fn.max("pa.is_app_disabled").as("disabled"),
        eb.fn.max("pa.daily_limit_minutes").as("limit"),
        eb.fn.max("pa.enable_daily_limit").as("enable_limit"),
      ])
      .where("u.device_id", "=", deviceId)
      .where("u.day", ">=", period.from)
      .where("u.day", "<", period.to)
      .groupBy("u.package_name")
      .execute(),
    db.selectFrom("store_categories").select(["id", "name"]).execute(),
    db
      .selectFrom("category_limits")
      .select(["category", "enable_daily_limit", "daily_limit_minutes", "is_category_enabled"])
      .where("profile_id", "=", profileId)
      .execute(),
    period.filter === "day"
      ? db
          .selectFrom("app_usage_hourly as h")
          .leftJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "h.device_id").onRef("pa.package_name", "=", "h.package_name"))
          .select((eb) => ["h.hour as slot", "pa.play_store_category as category", eb.fn.sum<number>("h.minutes").as("minutes")])
          .where("h.device_id", "=", deviceId)
          .where("h.hour", ">=", period.from)
          .where("h.hour", "<", period.to)
          .groupBy(["h.hour", "pa.play_store_category"])
          .execute()
      : db
          .selectFrom("app_usage_daily as u")
          .leftJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
          .select((eb) => ["u.day as slot", "pa.play_store_category as category", eb.fn.sum<number>("u.minutes").as("minutes")])
          .where("u.device_id", "=", deviceId)
          .where("u.day", ">=", period.from)
          .where("u.day", "<", period.to)
          .groupBy(["u.day", "pa.play_store_category"])
          .execute(),
    db
      .selectFrom("app_usage_hourly")
      .select("hour")
      .where("device_id", "=", deviceId)
      .orderBy("hour", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);

  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  const apps: AppUsageItem[] = perApp
    .filter((r) => r.package_name !== KIDS_APP_PACKAGE)
    .map((r) => {
      const category = (r.category as string | null) ?? "Others";
      return {
        packageName: r.package_name,
        title: (r.title as string | null) ?? r.package_name,
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
      period.filter === "day" ? Number.parseInt(slotStr.slice(11, 13), 10) : Math.round((Date.parse(`${slotStr.slice(0, 10)}T00:00:00Z`) - fromMs) / 86_400_000);
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

// ---------------------------------------------------------------- notifications

export async function countUnreadNotifications(db: DB, profileId: string): Promise<number> {
  const r = await db
    .selectFrom("notifications")
    .select(sql<number>`count(*)`.as("n"))
    .where("profile_id", "=", profileId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Newest first; `limit` grows by 20 per page (the loader). */
export async function listNotifications(db: DB, profileId: string, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("notifications")
      .leftJoin("catalog_apps", "catalog_apps.package_name", "notifications.package_name")
      .select(["notifications.id", "notifications.message", "notifications.type", "notifications.package_name", "notifications.created_at", "notifications.read_at", "catalog_apps.title"])
      .where("notifications.profile_id", "=", profileId)
      .orderBy("notifications.created_at", "desc")
      .orderBy("notifications.id")
      .limit(limit)
      .execute(),
    db.selectFrom("notifications").select(sql<number>`count(*)`.as("n")).where("profile_id", "=", profileId).executeTakeFirstOrThrow(),
  ]);
  return { items: rows, total: Number(total.n) };
}

/** Opening the notification center resets the unread count to 0. */
export async function markNotificationsRead(db: DB, profileId: string, now = new Date()): Promise<number> {
  const r = await db.updateTable("notifications").set({ read_at: nowIso(now) }).where("profile_id", "=", profileId).where("read_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}

// ---------------------------------------------------------------- pending ratings

/**
 * Apps waiting for the parent's rating: store apps installed on the kid's phone since the rating popup was
 * last closed (kept per device as a setting, so no extra table is needed).
 */
export async function listPendingRatings(db: DB, deviceId: string, limit = 10) {
  // Apps installed since the rating popup was last closed (all of them before it ever was), in one round trip.
  return db
    .selectFrom("profile_apps as pa")
    .innerJoin("catalog_apps as c", "c.package_name", "pa.package_name")
    .select(["pa.id", "pa.package_name", "c.title", "c.icon"])
    .where("pa.device_id", "=", deviceId)
    .where("pa.is_installed", "=", 1)
    .where("c.is_system_app", "=", 0)
    .where("pa.package_name", "!=", KIDS_APP_PACKAGE)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("global_settings as g")
            .select("g.value")
            .where("g.device_id", "=", deviceId)
            .where("g.key", "=", RATING_SHOWN_KEY)
            .whereRef("g.value", ">=", "pa.created_at"),
        ),
      ),
    )
    .orderBy("pa.created_at", "desc")
    .orderBy("c.title")
    .limit(limit)
    .execute();
}

export async function markRatingsShown(db: DB, deviceId: string, now = new Date()): Promise<void> {
  const value = nowIso(now);
  await db
    .insertInto("global_settings")
    .values({ device_id: deviceId, key: RATING_SHOWN_KEY, value, updated_at: value })
    .onConflict((oc) => oc.columns(["device_id", "key"]).doUpdateSet({ value, updated_at: value }))
    .execute();
}

// ---------------------------------------------------------------- settings pages

export async function getGlobalDailyLimit(db: DB, deviceId: string): Promise<number> {
  const r = await db.selectFrom("global_settings").select("value").where("device_id", "=", deviceId).where("key", "=", GLOBAL_DAILY_LIMIT_KEY).executeTakeFirst();
  const n = Number.parseInt(r?.value ?? "0", 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export async function getLocationSettings(db: DB, deviceId: string) {
  const r = await db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst();
  return { enableLocationTracking: Boolean(r?.enable_location_tracking ?? 0), locationTrackingInterval: Number(r?.location_tracking_interval ?? 0) };
}

export async function setReportType(db: DB, parentId: string, type: "Off" | "Weekly" | "Monthly", now = new Date()): Promise<void> {
  await db.updateTable("parents").set({ kids_report_type: type, updated_at: nowIso(now) }).where("id", "=", parentId).execute();
}

export async function getDeviceDetails(db: DB, deviceId: string) {
  return db
    .selectFrom("devices")
    .leftJoin("device_status", "device_status.device_id", "devices.id")
    .select([
      "devices.id",
      "devices.serial_number",
      "devices.brand",
      "devices.hardware",
      "devices.baseband_version",
      "devices.manufacturer",
      "devices.model",
      "devices.android_version",
      "devices.language_code",
      "devices.imei",
      "devices.wifi_mac",
      "devices.network_operator",
      "devices.phone_number",
      "devices.total_ram",
      "devices.total_storage",
      "device_status.battery_percentage",
      "device_status.battery_checked_at",
    ])
    .where("devices.id", "=", deviceId)
    .executeTakeFirst();
}
