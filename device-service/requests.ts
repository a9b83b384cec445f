import { TRPCError } from "@trpc/server";
import type { Selectable } from "kysely";
import type { AppRequestsTable } from "../db/schema-device-service";
import { extendStopOf } from "../db/queries/requests";
import { bonusOnDay } from "../db/queries/time-rules/bonus";
import { INSTALL_FIRST, extendBonusMinutes, type ExtendStop } from "../core/limits";
import { nowIso } from "../core/ids.server";
import { grantBonus } from "./bonus";
import { issueCommand } from "./commands/outbox";
import type { DeviceServiceDeps } from "./context";
import { possessive } from "./messages";
import { notifyParents } from "./notify";
import { latestPolicy } from "./policy/store";
import { installFromStore, uninstallFromStore } from "./store";

/**
 * Answers to the kid's requests (issue 14; spec 2 §4): install, uninstall, extra time today, or no.
 *
 * Every answer starts with one conditional UPDATE of the Pending row (`claim`), so two parents answering at once
 * produce one outcome and the second is told the request was already answered. The work is then done by the one
 * function that does it everywhere, and when that refuses (the store's checks) the claim is given back, so the
 * request stays Pending and the parent sees why:
 *  - Install → the Play Store's installFromStore (store.ts): master application, the kid's profile application
 *    with the popup's limit, INSTALL_APP through the outbox; the phone's install_result re-applies the policy
 *    with the limit (socket/telemetry.ts).
 *  - UnInstall → the store's uninstallFromStore: UNINSTALL_APP, the profile application deleted, the policy re-applied.
 *  - Extend → bonus time for the app (bonus.ts grantBonus, scope 'app'): today's limit rises until the kid's
 *    midnight, the standing limit never changes, every phone of the kid gets the policy.
 * The answer itself reaches the phone as APP_REQUEST_RESULT through the outbox (durable: the phone may be off).
 */

export type AppRequest = Selectable<AppRequestsTable>;
export type AppRequestType = AppRequest["request_type"];

export const REQUEST_NOT_FOUND = "We couldn't find this request.";
export const ALREADY_ANSWERED = "This request was already answered.";

export interface Answerer {
  parentId: string;
  kid: { id: string; name: string };
  device: { id: string; profile_id: string };
}

export interface Answered {
  respones_msg: string;
  status: "Approved" | "Rejected";
  policyVersion: number | null;
}

/** The extend popup's answer when the app's category stops it anyway (spec 2 §4 redirectToCategory). */
export interface RedirectToCategory {
  respones_msg: string;
  redirectToCategory: true;
  /** The category id (spec 2 §7: the error's data). */
  data: string;
  /** What stops the app: the app itself turned off, or its category (the warning names which). */
  reason: ExtendStop;
}

/** A Pending or answered request of this kid's phone; anyone else's id is NOT_FOUND. */
export async function findRequest(deps: Pick<DeviceServiceDeps, "db">, a: Answerer, id: string): Promise<AppRequest> {
  const req = await deps.db
    .selectFrom("app_requests")
    .selectAll()
    .where("id", "=", id)
    .where("profile_id", "=", a.kid.id)
    .where("device_id", "=", a.device.id)
    .executeTakeFirst();
  if (!req) throw new TRPCError({ code: "NOT_FOUND", message: REQUEST_NOT_FOUND });
  if (req.status !== "Pending") throw new TRPCError({ code: "CONFLICT", message: ALREADY_ANSWERED });
  return req;
}

/** The one outcome: Pending → status, by this parent. CONFLICT when another answer got there first. */
async function claim(db: DeviceServiceDeps["db"], req: AppRequest, status: "Approved" | "Rejected", parentId: string): Promise<string> {
  const ts = nowIso();
  const r = await db
    .updateTable("app_requests")
    .set({ status, answered_by: parentId, answered_at: ts, updated_at: ts })
    .where("id", "=", req.id)
    .where("status", "=", "Pending")
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new TRPCError({ code: "CONFLICT", message: ALREADY_ANSWERED });
  return ts;
}

/**
 * Claims the approval, then does it; when the doing refuses (the store's or the bonus's checks), the claim is
 * given back (only this claim: same parent, same moment) and the refusal reaches the parent.
 */
async function approving<T>(deps: DeviceServiceDeps, a: Answerer, req: AppRequest, act: () => Promise<T>): Promise<T> {
  const at = await claim(deps.db, req, "Approved", a.parentId);
  try {
    return await act();
  } catch (err) {
    await deps.db
      .updateTable("app_requests")
      .set({ status: "Pending", answered_by: null, answered_at: null, updated_at: nowIso() })
      .where("id", "=", req.id)
      .where("status", "=", "Approved")
      .where("answered_by", "=", a.parentId)
      .where("answered_at", "=", at)
      .execute();
    throw err;
  }
}

async function catalogApp(deps: Pick<DeviceServiceDeps, "db">, packageName: string) {
  return deps.db
    .selectFrom("catalog_apps")
    .select(["title", "genre_id", "is_system_app"])
    .where("package_name", "=", packageName)
    .executeTakeFirst();
}

async function profileApp(deps: Pick<DeviceServiceDeps, "db">, deviceId: string, packageName: string) {
  return deps.db
    .selectFrom("profile_apps")
    .selectAll()
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
}

/** Tells the phone (durably: it may be off for a while) and every open dashboard of the kid's parents. */
async function answerPhone(
  deps: DeviceServiceDeps,
  a: Answerer,
  req: AppRequest,
  status: "Approved" | "Rejected",
  limits: { standing: number | null; today: number | null },
  message: string,
) {
  await issueCommand(deps, {
    deviceId: a.device.id,
    type: "APP_REQUEST_RESULT",
    payload: {
      requestId: req.id,
      messageId: req.message_id,
      requestType: req.request_type,
      packageName: req.package_name,
      status,
      dailyLimitMinutes: limits.standing,
      limitTodayMinutes: limits.today,
      message,
    },
    issuedBy: a.parentId,
    ttlMs: null,
  });
  await notifyParents(deps, a.kid.id, "request.answered");
}

const limitOf = (row: { enable_daily_limit: number; daily_limit_minutes: number } | undefined) =>
  row && row.enable_daily_limit === 1 && row.daily_limit_minutes > 0 ? row.daily_limit_minutes : null;

// ---- install and uninstall: the Play Store's (store.ts) ----

const target = (a: Answerer) => ({ device: a.device, kid: a.kid, parentId: a.parentId });

export async function approveInstall(
  deps: DeviceServiceDeps,
  a: Answerer,
  req: AppRequest,
  limit: { enabled: boolean; minutes: number },
): Promise<Answered> {
  const done = await approving(deps, a, req, () =>
    installFromStore(deps, target(a), {
      packageName: req.package_name,
      enableDailyLimit: limit.enabled,
      dailyLimitTime: limit.enabled ? limit.minutes : 0,
      requestId: req.id,
    }),
  );
  const title = (await catalogApp(deps, req.package_name))?.title ?? req.package_name;
  const standing = limit.enabled ? limit.minutes : null;
  const what = standing ? `with a daily limit of ${standing} minutes` : "with no daily limit";
  await answerPhone(deps, a, req, "Approved", { standing, today: standing }, `Your parent said yes: ${title} is being installed ${what}.`);
  // The limit reaches the phone with the policy once the phone says the app is installed (socket/telemetry.ts).
  return { respones_msg: done.respones_msg, status: "Approved", policyVersion: null };
}

export async function approveUninstall(deps: DeviceServiceDeps, a: Answerer, req: AppRequest): Promise<Answered> {
  const done = await approving(deps, a, req, () => uninstallFromStore(deps, target(a), req.package_name, req.id));
  const title = (await catalogApp(deps, req.package_name))?.title ?? req.package_name;
  await answerPhone(deps, a, req, "Approved", { standing: null, today: null }, `Your parent said yes: ${title} is being removed.`);
  return {
    respones_msg: done.respones_msg,
    status: "Approved",
    policyVersion: (await latestPolicy(deps.db, a.device.id))?.version ?? null,
  };
}

// ---- extend: bonus time for the app (bonus.ts) ----

/** The approval's answer when extra time would change nothing (extendStopOf); the page shows its warning. */
export const EXTEND_STOPPED: Record<ExtendStop, string> = {
  "app-disabled": "This app is disabled, so extra time would not let it run. Enable the app first.",
  "category-disabled": "This app's category is disabled, so extra time would not let the app run. Enable the category first.",
  "category-used-up":
    "This app's category has used up its daily limit today, so extra time would not let the app run. Change the category's limit first.",
};

export async function approveExtend(
  deps: DeviceServiceDeps,
  a: Answerer,
  req: AppRequest,
  extraMinutes: number,
): Promise<Answered | RedirectToCategory> {
  const app = await profileApp(deps, a.device.id, req.package_name);
  if (!app || app.is_installed !== 1) throw new TRPCError({ code: "PRECONDITION_FAILED", message: INSTALL_FIRST });
  const stopped = await extendStopOf(deps.db, { deviceId: a.device.id, profileId: a.kid.id, packageName: req.package_name });
  if (stopped?.stop)
    return { respones_msg: EXTEND_STOPPED[stopped.stop], redirectToCategory: true, data: stopped.category, reason: stopped.stop };
  const title = (await catalogApp(deps, req.package_name))?.title ?? req.package_name;
  const minutes = extendBonusMinutes(extraMinutes);
  const given = await approving(deps, a, req, () =>
    grantBonus(deps, { profileId: a.kid.id, scope: "app", target: req.package_name, minutes, actor: a.parentId }),
  );
  const bonusToday =
    (await bonusOnDay(deps.db, a.kid.id, given.day)).find((b) => b.scope === "app" && b.target === req.package_name)?.minutes ?? minutes;
  const standing = limitOf(app);
  const today = standing === null ? null : standing + bonusToday;
  const total = today === null ? "" : ` (${today} minutes in all today)`;
  await answerPhone(
    deps,
    a,
    req,
    "Approved",
    { standing, today },
    `Your parent said yes: ${minutes} more minutes on ${title} today${total}.`,
  );
  return {
    respones_msg: `${a.kid.name} has ${minutes} more minutes on ${title} today${total}.`,
    status: "Approved",
    policyVersion: given.policyVersions[a.device.id] ?? null,
  };
}

// ---- reject ----

export async function rejectRequest(deps: DeviceServiceDeps, a: Answerer, req: AppRequest): Promise<Answered> {
  await claim(deps.db, req, "Rejected", a.parentId);
  const title = (await catalogApp(deps, req.package_name))?.title ?? req.package_name;
  const app = await profileApp(deps, a.device.id, req.package_name);
  const standing = limitOf(app);
  await answerPhone(deps, a, req, "Rejected", { standing, today: standing }, `Your parent said no to your request about ${title}.`);
  return { respones_msg: `Request rejected. ${possessive(a.kid.name)} phone will show it.`, status: "Rejected", policyVersion: null };
}
