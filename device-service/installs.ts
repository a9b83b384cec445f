import type { DB } from "../db/index";
import { newId, nowIso } from "../core/ids.server";
import { issueCommand } from "./commands/outbox";
import { coalesce, groupBy, type Coalesced } from "./coalesce";
import type { DeviceServiceDeps } from "./context";
import type { InstallFailureReason } from "./socket/messages";

/** Defaults of INSTALL_RETRY_MAX_ATTEMPTS and INSTALL_RETRY_BASE_MS (core/env.server.ts). */
export const INSTALL_MAX_ATTEMPTS = 5;
export const INSTALL_RETRY_BASE_MS = 30_000;

/** What happens after a failure (spec 2 §8): retried on a timer, resumed by the phone, or left to the parent. */
export type RetryRule = "timer" | "online" | "storage" | "installing" | "none";

export function retryRule(reason: InstallFailureReason): RetryRule {
  switch (reason) {
    case "INSTALLATION_FAILURE_REASON_UNKNOWN":
      return "timer";
    case "NETWORK_ERROR_UNRELIABLE_CONNECTION":
      return "online";
    case "INSUFFICIENT_STORAGE":
      return "storage";
    case "IN_PROGRESS":
      return "installing";
    default:
      return "none";
  }
}

function settings(deps: Pick<DeviceServiceDeps, "installRetry">) {
  return {
    baseMs: deps.installRetry?.baseMs ?? INSTALL_RETRY_BASE_MS,
    maxAttempts: deps.installRetry?.maxAttempts ?? INSTALL_MAX_ATTEMPTS,
  };
}

/** Exponential backoff: base, 2×base, 4×base … after the 1st, 2nd, 3rd failed attempt. */
export function installRetryDelay(attempts: number, baseMs = INSTALL_RETRY_BASE_MS): number {
  return baseMs * 2 ** Math.max(0, attempts - 1);
}

const ACTIVE = ["pending", "waiting_online", "waiting_storage", "sent"] as const;

/** Sends INSTALL_APP for a package the parent chose; the phone answers with an install_result event. */
export async function requestInstall(deps: DeviceServiceDeps, deviceId: string, packageName: string, issuedBy: string | null) {
  return issueCommand(deps, { deviceId, type: "INSTALL_APP", payload: { packageName, installType: "FORCE_INSTALLED" }, issuedBy });
}

const retryJobId = (deviceId: string, packageName: string, attempts: number) => `install-${deviceId}-${packageName}-${attempts}`;

/**
 * A failed install. The profile application shows the reason (IN_PROGRESS shows as installing). The retry row is
 * the state: a timed retry (UNKNOWN) gets a delayed job, NETWORK_ERROR waits for the phone to come back online,
 * INSUFFICIENT_STORAGE for it to report more free storage; every other reason gives up. Attempts are capped.
 */
export async function recordInstallFailure(
  deps: DeviceServiceDeps,
  deviceId: string,
  packageName: string,
  reason: InstallFailureReason,
): Promise<void> {
  const ts = nowIso();
  const rule = retryRule(reason);
  const showApp = (db: DB) =>
    db
      .updateTable("profile_apps")
      .set({
        is_installed: 0,
        installation_failure_reason: reason,
        install_state: rule === "installing" ? "installing" : "failed",
        updated_at: ts,
      })
      .where("device_id", "=", deviceId)
      .where("package_name", "=", packageName)
      .execute();
  if (rule === "installing") {
    await showApp(deps.db);
    return;
  }
  const prev = await deps.db
    .selectFrom("install_retries")
    .selectAll()
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  const attempts = (prev && (ACTIVE as readonly string[]).includes(prev.status) ? prev.attempts : 0) + 1;
  const { baseMs, maxAttempts } = settings(deps);
  const status =
    rule === "none" || attempts >= maxAttempts
      ? "gave_up"
      : rule === "timer"
        ? "pending"
        : rule === "online"
          ? "waiting_online"
          : "waiting_storage";
  const next = new Date(Date.now() + (status === "pending" ? installRetryDelay(attempts, baseMs) : 0)).toISOString();
  const storage =
    rule === "storage"
      ? ((await deps.db.selectFrom("device_status").select("free_storage_mb").where("device_id", "=", deviceId).executeTakeFirst())
          ?.free_storage_mb ?? null)
      : null;
  const values = { attempts, reason, status, next_attempt_at: next, free_storage_mb: storage, updated_at: ts } as const;
  // The app's state and its retry row change together: whoever sees the reason sees what happens next.
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("install_retries")
      .values({ device_id: deviceId, package_name: packageName, ...values })
      .onConflict((oc) => oc.columns(["device_id", "package_name"]).doUpdateSet(values))
      .execute();
    await showApp(trx);
  });
  if (status === "pending" && deps.jobs) {
    await deps.jobs.enqueue(
      "install-retry",
      { deviceId, packageName },
      { delayMs: installRetryDelay(attempts, baseMs), jobId: retryJobId(deviceId, packageName, attempts) },
    );
  }
}

/** The phone installed it: the profile application is on the phone, retries end. */
export async function recordInstalled(
  deps: DeviceServiceDeps,
  device: { id: string; profile_id: string },
  packageName: string,
): Promise<{ hadLimit: boolean }> {
  const ts = nowIso();
  const app = await deps.db
    .selectFrom("profile_apps")
    .select(["id", "enable_daily_limit"])
    .where("device_id", "=", device.id)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  await deps.db.transaction().execute(async (trx) => {
    await markInstallDone(trx, device.id, packageName);
    if (app)
      await trx
        .updateTable("profile_apps")
        .set({ is_installed: 1, installation_failure_reason: null, install_state: "installed", updated_at: ts })
        .where("id", "=", app.id)
        .execute();
    else
      await trx
        .insertInto("profile_apps")
        .values({
          id: newId(),
          profile_id: device.profile_id,
          device_id: device.id,
          package_name: packageName,
          disabled_type: null,
          installation_failure_reason: null,
          is_installed: 1,
          created_at: ts,
          updated_at: ts,
        })
        .execute();
  });
  return { hadLimit: app?.enable_daily_limit === 1 };
}

export async function markInstallDone(db: DB, deviceId: string, packageName: string): Promise<void> {
  await db
    .updateTable("install_retries")
    .set({ status: "done", updated_at: nowIso() })
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .execute();
}

/** Sends the install again and marks the row sent (a duplicate job or event then finds nothing to do). */
async function resend(deps: DeviceServiceDeps, deviceId: string, packageName: string, fromStatus: string, now: Date): Promise<boolean> {
  const res = await deps.db
    .updateTable("install_retries")
    .set({ status: "sent", updated_at: nowIso(now) })
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .where("status", "=", fromStatus as "pending")
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return false; // someone else resent it
  await deps.db
    .updateTable("profile_apps")
    .set({ install_state: "installing", installation_failure_reason: null, updated_at: nowIso(now) })
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .execute();
  await requestInstall(deps, deviceId, packageName, null);
  return true;
}

/** The install-retry processor: idempotent; does nothing unless the retry is still pending and due. */
export async function runInstallRetry(deps: DeviceServiceDeps, deviceId: string, packageName: string, now = new Date()): Promise<boolean> {
  const row = await deps.db
    .selectFrom("install_retries")
    .selectAll()
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  if (!row || row.status !== "pending") return false;
  if (row.next_attempt_at > nowIso(new Date(now.getTime() + 1_000))) return false;
  const app = await deps.db
    .selectFrom("profile_apps")
    .select(["is_installed"])
    .where("device_id", "=", deviceId)
    .where("package_name", "=", packageName)
    .executeTakeFirst();
  if (!app || app.is_installed === 1) {
    await markInstallDone(deps.db, deviceId, packageName);
    return false;
  }
  return resend(deps, deviceId, packageName, "pending", now);
}

/**
 * The phone is back (its first child_status on a new connection): installs that failed for the network resume.
 * With `freeStorageMb` (the phone reported its storage): installs that failed for storage resume once it has
 * more free than when they failed. Returns the packages sent again.
 */
export async function resumeInstalls(
  deps: DeviceServiceDeps,
  deviceId: string,
  trigger: { online: true } | { freeStorageMb: number },
  now = new Date(),
): Promise<string[]> {
  const rows =
    "online" in trigger
      ? ((await waitingOnline(deps.db)(deviceId)) ?? [])
      : await deps.db
          .selectFrom("install_retries")
          .select(["package_name", "status", "free_storage_mb"])
          .where("device_id", "=", deviceId)
          .where("status", "=", "waiting_storage")
          .execute();
  const sent: string[] = [];
  for (const r of rows) {
    if ("freeStorageMb" in trigger && r.free_storage_mb !== null && trigger.freeStorageMb <= r.free_storage_mb) continue;
    if (await resend(deps, deviceId, r.package_name, r.status, now)) sent.push(r.package_name);
  }
  return sent;
}

type Waiting = { device_id: string; package_name: string; status: string; free_storage_mb: number | null };
/** Every phone reads its installs waiting for the network as it connects: in a reconnect storm they go together. */
const waitingReaders = new WeakMap<DB, Coalesced<Waiting[]>>();
function waitingOnline(db: DB): Coalesced<Waiting[]> {
  let read = waitingReaders.get(db);
  if (!read) {
    read = coalesce(async (ids) =>
      groupBy(
        await db
          .selectFrom("install_retries")
          .select(["device_id", "package_name", "status", "free_storage_mb"])
          .where("device_id", "in", ids)
          .where("status", "=", "waiting_online")
          .execute(),
        (r) => r.device_id,
      ),
    );
    waitingReaders.set(db, read);
  }
  return read;
}

/** Start-up: every pending timed retry gets its job back (dedup by job id keeps this safe on every process). */
export async function recoverInstallRetries(deps: DeviceServiceDeps): Promise<number> {
  if (!deps.jobs) return 0;
  const rows = await deps.db.selectFrom("install_retries").selectAll().where("status", "=", "pending").execute();
  for (const r of rows) {
    const delayMs = Math.max(0, Date.parse(r.next_attempt_at) - Date.now());
    await deps.jobs.enqueue(
      "install-retry",
      { deviceId: r.device_id, packageName: r.package_name },
      { delayMs, jobId: retryJobId(r.device_id, r.package_name, r.attempts) },
    );
  }
  return rows.length;
}
