import { sql } from "kysely";
import type { DB } from "../index";
import { cleanPhoneTextOrNull } from "../../core/phone-text";
import { extendStop, type ExtendStop } from "../../core/limits";
import type { AppRequestType } from "../schema-device-service";
import { bonusOnLocalToday } from "./time-rules/bonus";
import { categoryUsedToday } from "./usage-today";

export interface PendingRequest {
  id: string;
  packageName: string;
  requestType: AppRequestType;
  /** Minutes asked for (Extend Time). */
  extendedTime: number;
  remarks: string | null;
  createdAt: string;
  /** The store's listing (playstoreDetail); null when the catalogue lacks the app. */
  title: string | null;
  icon: string | null;
  /** The app's standing daily limit on this phone (profileAppDetail.dailyLimitTime); null when it has none. */
  dailyLimitTime: number | null;
  /** The app's store category on this phone, if it is there. */
  category: string | null;
  /** Bonus minutes the app already has today (bonus_grants, scope 'app', the kid's day in the family's zone). */
  extraToday: number;
  /** A paid app (spec 2 §4 'Coming Soon': it cannot be installed yet). */
  paid: boolean;
}

/**
 * Spec 2 §2 /requests: the phone's Pending requests, newest first (GET application/request/list, status Pending).
 * `profileId`, the phone's kid when the caller knows it, lets the kid's bonus minutes be read beside the list
 * (one wait, not three); they are used only if the requests are that kid's, as they are unless the phone moved.
 */
export async function listPendingRequests(db: DB, deviceId: string, now: Date = new Date(), profileId?: string): Promise<PendingRequest[]> {
  const bonusOf = (kid: string) => bonusOnLocalToday(db, kid, now);
  const list = db
    .selectFrom("app_requests as r")
    .leftJoin("catalog_apps as c", "c.package_name", "r.package_name")
    .leftJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "r.device_id").onRef("pa.package_name", "=", "r.package_name"))
    .select([
      "r.id",
      "r.package_name",
      "r.request_type",
      "r.extended_time",
      "r.remarks",
      "r.created_at",
      "c.title",
      "c.icon",
      "c.free",
      "c.price",
      "pa.enable_daily_limit",
      "pa.daily_limit_minutes",
      "pa.play_store_category",
      "r.profile_id",
    ])
    .where("r.device_id", "=", deviceId)
    .where("r.status", "=", "Pending")
    .orderBy("r.created_at", "desc")
    .orderBy("r.id")
    .limit(200)
    .execute();
  const [rows, early] = await Promise.all([list, profileId ? bonusOf(profileId) : null]);
  const kid = rows[0]?.profile_id;
  const bonus = !kid ? [] : early && kid === profileId ? early : await bonusOf(kid);
  const appBonus = new Map(bonus.filter((b) => b.scope === "app").map((b) => [b.target, b.minutes]));
  return rows.map((r) => ({
    id: r.id,
    packageName: r.package_name,
    requestType: r.request_type,
    extendedTime: Number(r.extended_time),
    remarks: cleanPhoneTextOrNull(r.remarks), // stored before the text was cleaned at ingest (core/phone-text.ts)
    createdAt: r.created_at,
    title: r.title ?? null,
    icon: r.icon ?? null,
    dailyLimitTime: r.enable_daily_limit === 1 && Number(r.daily_limit_minutes) > 0 ? Number(r.daily_limit_minutes) : null,
    category: r.play_store_category ?? null,
    extraToday: appBonus.get(r.package_name) ?? 0,
    paid: r.free === 0 && Number(r.price ?? 0) > 0,
  }));
}

/** One Pending request of this phone, or null (another phone's, answered, unknown). */
export async function findPendingRequest(db: DB, deviceId: string, id: string): Promise<PendingRequest | null> {
  const list = await listPendingRequests(db, deviceId);
  return list.find((r) => r.id === id) ?? null;
}

/** Pending requests per kid (the side menu's Request count), from phones still in the account. */
export async function pendingRequestCounts(db: DB, profileIds: string[]): Promise<Record<string, number>> {
  if (profileIds.length === 0) return {};
  const rows = await db
    .selectFrom("app_requests as r")
    .innerJoin("devices as d", "d.id", "r.device_id")
    .select(["r.profile_id", sql<number>`count(*)`.as("n")])
    .where("r.profile_id", "in", profileIds)
    .where("r.status", "=", "Pending")
    .where("d.unenrolled_at", "is", null)
    .groupBy("r.profile_id")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.profile_id, Number(r.n)]));
}

/** Whether this id is a request of this phone, answered or not (a route's check before it calls the service). */
export async function requestOnDevice(db: DB, deviceId: string, id: string): Promise<{ id: string; status: string } | null> {
  const r = await db
    .selectFrom("app_requests")
    .select(["id", "status"])
    .where("id", "=", id)
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  return r ?? null;
}

/**
 * Whether extra time today would let the app run on this phone (core/limits.ts extendStop), and its category; null
 * when the app is not on the phone. The extend popup's warning and the approval (device-service/requests.ts) share it.
 */
export async function extendStopOf(
  db: DB,
  x: { deviceId: string; profileId: string; packageName: string },
  now: Date = new Date(),
): Promise<{ stop: ExtendStop | null; category: string } | null> {
  const app = await db
    .selectFrom("profile_apps")
    .select(["is_app_disabled", "disabled_type", "play_store_category"])
    .where("device_id", "=", x.deviceId)
    .where("package_name", "=", x.packageName)
    .executeTakeFirst();
  if (!app) return null;
  const c = await db
    .selectFrom("category_limits")
    .select(["is_category_enabled", "enable_daily_limit", "daily_limit_minutes"])
    .where("profile_id", "=", x.profileId)
    .where("category", "=", app.play_store_category)
    .executeTakeFirst();
  const stop = extendStop({
    app: { disabled: app.is_app_disabled === 1, disabledType: app.disabled_type },
    category: c
      ? {
          enabled: c.is_category_enabled === 1,
          enableDailyLimit: c.enable_daily_limit === 1,
          dailyLimitMinutes: Number(c.daily_limit_minutes),
          usedMinutes: c.enable_daily_limit === 1 ? await categoryUsedToday(db, x.deviceId, app.play_store_category, now) : 0,
        }
      : null,
  });
  return { stop, category: app.play_store_category };
}
