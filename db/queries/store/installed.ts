import { appTitle } from "../../../core/store";
import { appIconHref } from "../../../core/app-icon";
import type { DB } from "../../index";
import type { ExpertRating, InstallState } from "../../schema";
import type { Actor } from "../parent-profile";
import type { IconOptions } from "./catalog";

/**
 * The store's Installed tab (spec 2 §2 /play-store) and the install state of single apps: what is on the phone,
 * plus what a parent is installing from the store (installing, or failed with its reason and retry).
 */

export interface InstallRetryView {
  attempts: number;
  status: string;
  /** When the next timed try is due (pending UNKNOWN retries only). */
  nextAttemptAt: string | null;
}

export interface InstalledItem {
  appId: string;
  title: string;
  icon: string;
  expertRating: ExpertRating;
  scoreText: string | null;
  price: number;
  free: boolean;
  isAppInstalled: boolean;
  isSystemApp: boolean;
  installState: InstallState | null;
  failureReason: string | null;
  enableDailyLimit: boolean;
  dailyLimitTime: number;
  retry: InstallRetryView | null;
  /** Who last installed or changed it from the portal (issue 18), or null (the phone's own apps). */
  actor: Actor | null;
}

const actorOf = (r: { actor_id: string | null; actor_name: string | null; actor_email: string | null }): Actor | null =>
  r.actor_id ? { id: r.actor_id, name: r.actor_name ?? "", email: r.actor_email ?? "" } : null;

export async function listStoreInstalled(db: DB, deviceId: string, { iconBase = "" }: IconOptions = {}): Promise<InstalledItem[]> {
  const rows = await db
    .selectFrom("profile_apps as pa")
    .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
    .leftJoin("install_retries as r", (j) => j.onRef("r.device_id", "=", "pa.device_id").onRef("r.package_name", "=", "pa.package_name"))
    .leftJoin("parents as p", "p.id", "pa.updated_by")
    .select([
      "p.id as actor_id",
      "p.name as actor_name",
      "p.email as actor_email",
      "pa.package_name",
      "pa.is_installed",
      "pa.install_state",
      "pa.installation_failure_reason",
      "pa.enable_daily_limit",
      "pa.daily_limit_minutes",
      "c.title",
      "c.icon",
      "c.expert_rating",
      "c.score_text",
      "c.price",
      "c.free",
      "c.is_system_app",
      "r.attempts",
      "r.status as retry_status",
      "r.next_attempt_at",
    ])
    .where("pa.device_id", "=", deviceId)
    .where((eb) => eb.or([eb("pa.is_installed", "=", 1), eb("pa.install_state", "in", ["installing", "failed"])]))
    .execute();
  const items = rows.map(
    (r): InstalledItem => ({
      appId: r.package_name,
      title: appTitle(r.title, r.package_name),
      // Apps outside the catalogue (sideloaded, the kids app) have no store icon: theirs is drawn.
      icon: appIconHref(r.package_name, appTitle(r.title, r.package_name), r.icon, r.title === null ? "" : iconBase),
      expertRating: r.expert_rating ?? null,
      scoreText: r.score_text ?? null,
      price: Number(r.price ?? 0),
      free: (r.free ?? 1) === 1 || !(Number(r.price ?? 0) > 0),
      isAppInstalled: r.is_installed === 1,
      isSystemApp: r.is_system_app === 1,
      installState: r.is_installed === 1 ? "installed" : (r.install_state ?? null),
      failureReason: r.is_installed === 1 ? null : (r.installation_failure_reason ?? null),
      enableDailyLimit: r.enable_daily_limit === 1,
      dailyLimitTime: r.daily_limit_minutes,
      retry:
        r.retry_status && r.is_installed !== 1
          ? {
              attempts: Number(r.attempts ?? 0),
              status: r.retry_status,
              nextAttemptAt: r.retry_status === "pending" ? (r.next_attempt_at ?? null) : null,
            }
          : null,
      actor: actorOf(r),
    }),
  );
  // Installing and failed first (what the parent is waiting on), then by title.
  const rank = (i: InstalledItem) => (i.installState === "installing" ? 0 : i.installState === "failed" ? 1 : 2);
  return items.sort((a, b) => rank(a) - rank(b) || a.title.localeCompare(b.title));
}

/** Is anything on this phone still installing? (The page refreshes itself without JavaScript while it is.) */
export async function hasInstallsInProgress(db: DB, deviceId: string): Promise<boolean> {
  const row = await db
    .selectFrom("profile_apps as pa")
    .leftJoin("install_retries as r", (j) => j.onRef("r.device_id", "=", "pa.device_id").onRef("r.package_name", "=", "pa.package_name"))
    .select("pa.id")
    .where("pa.device_id", "=", deviceId)
    .where("pa.is_installed", "=", 0)
    .where((eb) =>
      eb.or([eb("pa.install_state", "=", "installing"), eb("r.status", "in", ["pending", "waiting_online", "waiting_storage", "sent"])]),
    )
    .limit(1)
    .executeTakeFirst();
  return Boolean(row);
}

/** One app's install state on this phone (the /application page). */
export async function appInstallState(db: DB, deviceId: string, packageName: string) {
  const [app, retry] = await Promise.all([
    db
      .selectFrom("profile_apps")
      .select(["is_installed", "install_state", "installation_failure_reason"])
      .where("device_id", "=", deviceId)
      .where("package_name", "=", packageName)
      .executeTakeFirst(),
    db
      .selectFrom("install_retries")
      .selectAll()
      .where("device_id", "=", deviceId)
      .where("package_name", "=", packageName)
      .executeTakeFirst(),
  ]);
  if (!app) return null;
  return {
    installState: app.is_installed === 1 ? ("installed" as const) : (app.install_state ?? null),
    failureReason: app.is_installed === 1 ? null : app.installation_failure_reason,
    retry:
      retry && app.is_installed !== 1
        ? { attempts: retry.attempts, status: retry.status, nextAttemptAt: retry.status === "pending" ? retry.next_attempt_at : null }
        : null,
  };
}

export interface DashboardInstall {
  packageName: string;
  title: string;
  icon: string;
  state: "installing" | "failed";
  failureReason: string | null;
  /** Who sent the install (issue 18). */
  actor: Actor | null;
}

/**
 * Store installs on their way to this phone, for the dashboard: installing, or failed with the phone's reason.
 * Reads profile_apps and catalog_apps (both move the kid's view_rev, so the page cache's key changes with every
 * step; retry attempts and next tries are on the app's own page), and the parent who sent the install.
 */
export async function listDashboardInstalls(db: DB, deviceId: string, { iconBase = "" }: IconOptions = {}): Promise<DashboardInstall[]> {
  const rows = await db
    .selectFrom("profile_apps as pa")
    .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
    .leftJoin("parents as p", "p.id", "pa.updated_by")
    .select([
      "pa.package_name",
      "pa.install_state",
      "pa.installation_failure_reason",
      "c.title",
      "c.icon",
      "p.id as actor_id",
      "p.name as actor_name",
      "p.email as actor_email",
    ])
    .where("pa.device_id", "=", deviceId)
    .where("pa.is_installed", "=", 0)
    .where("pa.install_state", "in", ["installing", "failed"])
    .orderBy("pa.updated_at", "desc")
    .orderBy("pa.package_name")
    .limit(20)
    .execute();
  return rows.map((r) => ({
    packageName: r.package_name,
    title: appTitle(r.title, r.package_name),
    icon: appIconHref(r.package_name, appTitle(r.title, r.package_name), r.icon, r.title === null ? "" : iconBase),
    // IN_PROGRESS is the phone saying it is still at it: shown as installing (spec 2 §8).
    state: r.install_state === "installing" || r.installation_failure_reason === "IN_PROGRESS" ? "installing" : "failed",
    failureReason: r.install_state === "installing" ? null : r.installation_failure_reason,
    actor: actorOf(r),
  }));
}
