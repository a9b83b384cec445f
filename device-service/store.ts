import { TRPCError } from "@trpc/server";
import { newId, nowIso } from "../core/ids.server";
import { appIcon } from "../core/app-icon";
import { INSTALL_FIRST, KIDS_APP_LOCKED } from "../core/limits";
import { KIDS_APP_PACKAGE } from "../core/store";
import { issueCommand } from "./commands/outbox";
import type { DeviceServiceDeps } from "./context";
import { requestInstall } from "./installs";
import { possessive, waitingFor } from "./messages";
import { applyPolicy } from "./policy/store";
import { isOnline } from "./routers/online";

/**
 * Installing from the store and uninstalling (spec 2 §4): plain functions the store's procedures call, and the
 * requests' approvals (issue 14) too. Installing creates the master application, then the kid's profile
 * application (install_type FORCE_INSTALLED, the daily limit chosen in the install popup), and sends INSTALL_APP
 * through the outbox; the phone's install_result moves it on (socket/telemetry.ts, installs.ts).
 */

export const STORE_DETAIL_NOT_FOUND = "Playstore detail not found for this app, please try again after sometime.";
export const STORE_DETAIL_UNAVAILABLE = "Unable to fetch application detail from play store.";
export const SYSTEM_APP_MESSAGE = "This is a system app and cannot be uninstalled.";
/** Spec 2 §5 (the words live in core/limits.ts, shared with the pages). */
export const KIDS_APP_MESSAGE = KIDS_APP_LOCKED;
export const LIMIT_ABOVE_ZERO = "Please set a daily limit above 0 minutes, or choose Skip & Install.";

export const COMING_SOON_SUFFIX = " is Coming Soon: paid apps cannot be installed yet.";
export const comingSoon = (title: string) => `${title}${COMING_SOON_SUFFIX}`;

export interface StoreTarget {
  device: { id: string; profile_id: string };
  kid: { id: string; name: string };
  parentId: string | null;
}

export interface InstallInput {
  packageName: string;
  /** Skip & Install: false with 0 minutes. */
  enableDailyLimit: boolean;
  dailyLimitTime: number;
  /** The kid's request this install approves (issue 14). */
  requestId?: string | null;
}

async function storeListing(deps: DeviceServiceDeps, packageName: string) {
  try {
    return await deps.db.selectFrom("catalog_apps").selectAll().where("package_name", "=", packageName).executeTakeFirst();
  } catch (err) {
    deps.log("error", "store listing read failed", { packageName, error: err instanceof Error ? err.message : String(err) });
    throw new TRPCError({ code: "PRECONDITION_FAILED", message: STORE_DETAIL_UNAVAILABLE });
  }
}

/** The master application of a package, created on its first install anywhere. Spec 2 §8: a failure is ignored. */
async function ensureMasterApplication(deps: DeviceServiceDeps, listing: NonNullable<Awaited<ReturnType<typeof storeListing>>>) {
  const ts = nowIso();
  try {
    const {
      package_name,
      title,
      icon,
      price,
      free,
      score_text,
      reviews,
      content_rating,
      genre,
      genre_id,
      developer,
      developer_id,
      android_version_text,
      offers_iap,
      ad_supported,
      updated,
      url,
    } = listing;
    const details = {
      title,
      icon,
      price,
      free: free === 1,
      scoreText: score_text,
      reviews,
      contentRating: content_rating,
      genre,
      genreId: genre_id,
      developer,
      developerId: developer_id,
      androidVersionText: android_version_text,
      offersIAP: offers_iap === 1,
      adSupported: ad_supported === 1,
      updated,
      url,
    };
    await deps.db
      .insertInto("master_applications")
      .values({
        product_id: newId(),
        package_name,
        app_icon: appIcon(package_name, title, icon, deps.catalogIconBase ?? ""),
        application_details: JSON.stringify(details),
        type: "Android",
        created_at: ts,
        updated_at: ts,
      })
      .onConflict((oc) => oc.column("package_name").doNothing())
      .execute();
  } catch (err) {
    deps.log("warn", "master application not created", {
      packageName: listing.package_name,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

export async function installFromStore(deps: DeviceServiceDeps, target: StoreTarget, input: InstallInput) {
  const { device, kid } = target;
  const listing = await storeListing(deps, input.packageName);
  if (!listing || input.packageName === KIDS_APP_PACKAGE) throw new TRPCError({ code: "NOT_FOUND", message: STORE_DETAIL_NOT_FOUND });
  if (input.enableDailyLimit && !(input.dailyLimitTime > 0)) throw new TRPCError({ code: "BAD_REQUEST", message: LIMIT_ABOVE_ZERO });
  const existing = await deps.db
    .selectFrom("profile_apps")
    .select(["id", "is_installed"])
    .where("device_id", "=", device.id)
    .where("package_name", "=", input.packageName)
    .executeTakeFirst();
  if (existing?.is_installed === 1)
    throw new TRPCError({ code: "CONFLICT", message: `${listing.title} is already on ${possessive(kid.name)} phone.` });
  if (listing.free !== 1 && listing.price > 0) throw new TRPCError({ code: "BAD_REQUEST", message: comingSoon(listing.title) });

  await ensureMasterApplication(deps, listing);
  const ts = nowIso();
  const values = {
    play_store_category: listing.genre_id ?? "Others",
    enable_daily_limit: input.enableDailyLimit ? 1 : 0,
    daily_limit_minutes: input.enableDailyLimit ? input.dailyLimitTime : 0,
    is_installed: 0,
    installation_failure_reason: null,
    install_type: "FORCE_INSTALLED",
    install_state: "installing" as const,
    request_id: input.requestId ?? null,
    updated_by: target.parentId,
    updated_at: ts,
  };
  if (existing) await deps.db.updateTable("profile_apps").set(values).where("id", "=", existing.id).execute();
  else
    await deps.db
      .insertInto("profile_apps")
      .values({
        id: newId(),
        profile_id: device.profile_id,
        device_id: device.id,
        package_name: input.packageName,
        disabled_type: null,
        created_at: ts,
        ...values,
      })
      .execute();
  // A fresh install starts its attempts again.
  await deps.db.deleteFrom("install_retries").where("device_id", "=", device.id).where("package_name", "=", input.packageName).execute();
  const cmd = await requestInstall(deps, device.id, input.packageName, target.parentId);
  const limit = input.enableDailyLimit ? ` with a daily limit of ${input.dailyLimitTime} minutes` : "";
  return {
    respones_msg: `Installing ${listing.title} on ${possessive(kid.name)} phone${limit}. ${waitingFor(kid.name, await isOnline(deps.db, device.id))}`,
    commandId: cmd.id,
  };
}

/** Uninstall: refused for our kids app and system apps; sends UNINSTALL_APP, re-applies the policy without it, deletes the profile application. */
export async function uninstallFromStore(
  deps: DeviceServiceDeps,
  target: StoreTarget,
  packageName: string,
  requestId: string | null = null,
) {
  const { device, kid } = target;
  if (packageName === KIDS_APP_PACKAGE) throw new TRPCError({ code: "FORBIDDEN", message: KIDS_APP_MESSAGE });
  const listing = await storeListing(deps, packageName);
  if (listing?.is_system_app === 1) throw new TRPCError({ code: "FORBIDDEN", message: SYSTEM_APP_MESSAGE });
  const app = await deps.db
    .selectFrom("profile_apps")
    .select(["id", "is_installed"])
    .where("device_id", "=", device.id)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  if (!app || app.is_installed !== 1) throw new TRPCError({ code: "NOT_FOUND", message: INSTALL_FIRST });
  const cmd = await issueCommand(deps, {
    deviceId: device.id,
    type: "UNINSTALL_APP",
    payload: { action: "uninstall_app", packageName, requestId },
    issuedBy: target.parentId,
  });
  await deps.db.deleteFrom("profile_apps").where("id", "=", app.id).execute();
  await deps.db.deleteFrom("install_retries").where("device_id", "=", device.id).where("package_name", "=", packageName).execute();
  try {
    await applyPolicy(deps, device.id, target.parentId);
  } catch (err) {
    // Spec 2 §8: a failed policy application is silent (the next change re-applies it).
    deps.log("warn", "policy not applied after uninstall", {
      deviceId: device.id,
      error: err instanceof Error ? err.message : String(err),
    });
  }
  const title = listing?.title ?? packageName;
  return {
    respones_msg: `Uninstalling ${title} from ${possessive(kid.name)} phone. ${waitingFor(kid.name, await isOnline(deps.db, device.id))}`,
    commandId: cmd.id,
  };
}
