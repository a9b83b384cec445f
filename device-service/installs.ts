import type { DB } from "../db/index";
import { nowIso } from "../db/queries/ids";
import { issueCommand } from "./commands/outbox";
import type { DeviceServiceDeps } from "./context";
import { SERVER_RETRIED_REASONS, type InstallFailureReason } from "./socket/messages";

export const INSTALL_MAX_ATTEMPTS = 5;
export const INSTALL_RETRY_BASE_MS = 30_000;

export function installRetryDelay(attempts: number): number {
  return INSTALL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1);
}

/** Sends INSTALL_APP for a package the parent chose; the phone answers with an install_result event. */
export async function requestInstall(deps: DeviceServiceDeps, deviceId: string, packageName: string, issuedBy: string | null) {
  return issueCommand(deps, { deviceId, type: "INSTALL_APP", payload: { packageName, installType: "FORCE_INSTALLED" }, issuedBy });
}

/**
 * A failed install: transient reasons (spec 2 §8: "retried automatically") get a retry row and a delayed
 * job; the row is the state, so a lost job is re-derived at start-up (recoverInstallRetries).
 */
export async function recordInstallFailure(deps: DeviceServiceDeps, deviceId: string, packageName: string, reason: InstallFailureReason): Promise<void> {
  const ts = nowIso();
  if (!SERVER_RETRIED_REASONS.includes(reason)) {
    await deps.db.updateTable("install_retries").set({ status: "gave_up", reason, updated_at: ts }).where("device_id", "=", deviceId).where("package_name", "=", packageName).execute();
    return;
  }
  const prev = await deps.db.selectFrom("install_retries").selectAll().where("device_id", "=", deviceId).where("package_name", "=", packageName).executeTakeFirst();
  const attempts = (prev?.status === "pending" ? prev.attempts : 0) + 1;
  const status = attempts >= INSTALL_MAX_ATTEMPTS ? "gave_up" : "pending";
  const next = new Date(Date.now() + installRetryDelay(attempts)).toISOString();
  await deps.db
    .insertInto("install_retries")
    .values({ device_id: deviceId, package_name: packageName, attempts, reason, status, next_attempt_at: next, updated_at: ts })
    .onConflict((oc) => oc.columns(["device_id", "package_name"]).doUpdateSet({ attempts, reason, status, next_attempt_at: next, updated_at: ts }))
    .execute();
  if (status === "pending" && deps.jobs) {
    await deps.jobs.enqueue("install-retry", { deviceId, packageName }, { delayMs: installRetryDelay(attempts), jobId: `install-${deviceId}-${packageName}-${attempts}` });
  }
}

export async function markInstallDone(db: DB, deviceId: string, packageName: string): Promise<void> {
  await db.updateTable("install_retries").set({ status: "done", updated_at: nowIso() }).where("device_id", "=", deviceId).where("package_name", "=", packageName).execute();
}

/** The install-retry processor: idempotent; does nothing unless the retry is still pending and due. */
export async function runInstallRetry(deps: DeviceServiceDeps, deviceId: string, packageName: string, now = new Date()): Promise<boolean> {
  const row = await deps.db.selectFrom("install_retries").selectAll().where("device_id", "=", deviceId).where("package_name", "=", packageName).executeTakeFirst();
  if (!row || row.status !== "pending") return false;
  if (row.next_attempt_at > nowIso(new Date(now.getTime() + 1_000))) return false;
  const app = await deps.db.selectFrom("profile_apps").select(["is_installed"]).where("device_id", "=", deviceId).where("package_name", "=", packageName).executeTakeFirst();
  if (!app || app.is_installed === 1) {
    await markInstallDone(deps.db, deviceId, packageName);
    return false;
  }
  // Push the next attempt out so a duplicate job does not send twice; a new failure reschedules it.
  await deps.db
    .updateTable("install_retries")
    .set({ next_attempt_at: new Date(now.getTime() + installRetryDelay(row.attempts + 1)).toISOString(), updated_at: nowIso(now) })
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .execute();
  await requestInstall(deps, deviceId, packageName, null);
  return true;
}

/** Start-up: every pending retry gets its job back (dedup by job id keeps this safe on every process). */
export async function recoverInstallRetries(deps: DeviceServiceDeps): Promise<number> {
  if (!deps.jobs) return 0;
  const rows = await deps.db.selectFrom("install_retries").selectAll().where("status", "=", "pending").execute();
  for (const r of rows) {
    const delayMs = Math.max(0, Date.parse(r.next_attempt_at) - Date.now());
    await deps.jobs.enqueue("install-retry", { deviceId: r.device_id, packageName: r.package_name }, { delayMs, jobId: `install-${r.device_id}-${r.package_name}-${r.attempts}` });
  }
  return rows.length;
}
