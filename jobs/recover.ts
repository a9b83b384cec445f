import { expireOverdue, OPEN_STATUSES } from "../device-service/commands/outbox";
import type { DeviceServiceDeps } from "../device-service/context";
import { recoverInstallRetries } from "../device-service/installs";

/**
 * Jobs are derived from database state, so a lost job (a crash of the in-process runner, a flushed Redis)
 * is re-created here at start-up: overdue commands are closed, open ones get their expiry job back,
 * pending install retries are rescheduled. Job ids deduplicate, so every process may run this.
 */
export async function recoverJobs(deps: DeviceServiceDeps): Promise<{ expired: number; expiries: number; installs: number }> {
  const expired = await expireOverdue(deps.db);
  let expiries = 0;
  if (deps.jobs) {
    const open = await deps.db.selectFrom("device_commands").select(["id", "expires_at"]).where("status", "in", OPEN_STATUSES).where("expires_at", "is not", null).execute();
    for (const c of open) {
      await deps.jobs.enqueue("command-expiry", { commandId: c.id }, { delayMs: Math.max(0, Date.parse(c.expires_at!) - Date.now()) + 250, jobId: `expire-${c.id}` });
      expiries++;
    }
  }
  const installs = await recoverInstallRetries(deps);
  return { expired, expiries, installs };
}
