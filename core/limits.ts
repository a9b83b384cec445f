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
