/**
 * App and category limit rules shared by the pages (app/rules/apps.ts) and the device service's procedures.
 * Imports nothing from app/, db/, device-service/ or jobs/.
 */

/** Spec 2 §5: the same words for apps and categories. */
export const ENABLE_REFUSED = "Please increase daily limit time to enable this category.";
export const INSTALL_FIRST = "Please install app first";
/** Spec 2 §5: the kids app cannot be removed. */
export const KIDS_APP_LOCKED = "You don't have permission to uninstall this app";

/** Bonus time (extra minutes for today only, device-service/bonus.ts) comes in 15-minute steps, at most a day at once. */
export const BONUS_STEP = 15;
export const BONUS_MAX = 1440;

/**
 * The bonus minutes an approved "Extend Time" request gives: the kid's ask rounded up to the bonus step
 * (10 → 15; nothing asked → one step), at most a day. The extend popup shows this number and the approval gives it.
 */
export function extendBonusMinutes(asked: number): number {
  const m = Number.isFinite(asked) ? Math.ceil(Math.max(0, asked) / BONUS_STEP) * BONUS_STEP : 0;
  return Math.min(BONUS_MAX, Math.max(BONUS_STEP, m));
}

/** Enabling is refused while the limit is on and today's use has reached it (a limit of 0 is no limit). */
export function enableRefusal(x: { enableDailyLimit: boolean; dailyLimitMinutes: number; usedMinutes: number }): string | null {
  if (!x.enableDailyLimit || !(x.dailyLimitMinutes > 0)) return null;
  return x.usedMinutes >= x.dailyLimitMinutes ? ENABLE_REFUSED : null;
}

/** Why extra time today would not let an app run, whatever its own limit (the extend popup's warning; spec 2 §4). */
export type ExtendStop = "app-disabled" | "category-disabled" | "category-used-up";

/**
 * The app turned off by the parent (a block the phone derived from the app's own limit is what extra time lifts),
 * its category turned off, or the category's limit used up today: then an extension would change nothing.
 */
export function extendStop(x: {
  app: { disabled: boolean; disabledType: string | null };
  category: { enabled: boolean; enableDailyLimit: boolean; dailyLimitMinutes: number; usedMinutes: number } | null;
}): ExtendStop | null {
  if (x.app.disabled && (x.app.disabledType ?? "Manually") === "Manually") return "app-disabled";
  const c = x.category;
  if (!c) return null;
  if (!c.enabled) return "category-disabled";
  return c.enableDailyLimit && c.dailyLimitMinutes > 0 && c.usedMinutes >= c.dailyLimitMinutes ? "category-used-up" : null;
}

/**
 * What one phone may store of what it sends (issue 52, finding 2), per kind of message: at most `perMinute` a minute
 * (a bucket of that many that refills over the minute, so a short burst after a reconnect passes) and `perDay` a UTC
 * day. Over either, the item is answered with an error frame (RATE_LIMITED or DAILY_LIMIT) and not stored; nothing
 * stored before is touched. Enforced by device-service/socket/telemetry-limits.ts; docs/security.md lists them.
 */
export const TELEMETRY_LIMITS = {
  notification: { perMinute: 60, perDay: 2_000, noun: "notifications" },
  device_log: { perMinute: 10, perDay: 100, noun: "device logs" },
  browser_visit: { perMinute: 300, perDay: 10_000, noun: "browser visits" },
  app_request: { perMinute: 30, perDay: 100, noun: "app requests" },
  location: { perMinute: 30, perDay: 2_880, noun: "locations" },
} as const satisfies Record<string, { perMinute: number; perDay: number; noun: string }>;
export type LimitedTelemetry = keyof typeof TELEMETRY_LIMITS;

/** A device log's details, as stored (JSON), are at most this many bytes; a bigger one is refused whole (TOO_LARGE). */
export const DEVICE_LOG_MAX_BYTES = 16 * 1024;

/** Log cards on one page of /device-logs (`?logsPage=N`, 1 to DEVICE_LOG_MAX_PAGE). */
export const DEVICE_LOG_PAGE_SIZE = 20;
export const DEVICE_LOG_MAX_PAGE = 1_000;

/** Web addresses on one page of /browser-logs (`?page=N`, 1 to BROWSER_LOG_MAX_PAGE; a day lists at most 2,000). */
export const BROWSER_LOG_PAGE_SIZE = 50;
export const BROWSER_LOG_MAX_PAGE = 40;

/** Pending requests on one page of /requests (`?page=N`; the list reads the newest 200: db/queries/requests.ts). */
export const REQUESTS_PAGE_SIZE = 20;
