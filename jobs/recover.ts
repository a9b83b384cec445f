import { expireOverdue, EXPIRY_SWEEP_MS, OPEN_STATUSES, scheduleExpiry } from "../device-service/commands/outbox";
import type { DeviceServiceDeps } from "../device-service/context";
import { recoverInstallRetries } from "../device-service/installs";
import { ALERT_TICK_SCHEDULE } from "./alerts/deliver";
import { DAILY_RESET_SCHEDULE, resetDailyBlocks, scheduleDailyReset } from "./processors/daily-reset";

/** The report tick: every hour, builds the reports of periods that closed since (jobs/reports/build.ts). */
export const REPORTS_SCHEDULE = { id: "reports-hourly", everyMs: 3_600_000 } as const;
/** The webhook sweep: each minute, overdue deliveries are queued again (jobs/webhooks/deliver.ts sweepWebhooks). */
export const WEBHOOK_SWEEP_SCHEDULE = { id: "webhook-sweep", everyMs: 60_000 } as const;

/**
 * Jobs are derived from database state, so a lost job (a crash of the in-process runner, a flushed Redis)
 * is re-created here at start-up: overdue commands are closed, open ones get their expiry sweeps back (one per second of expiries),
 * pending install retries are rescheduled, the day's usage blocks of a missed midnight are cleared (each family at
 * its own midnight), the next family midnight's reset is scheduled and the 15-minute reset tick registered, the hourly report tick is registered and a report run is queued (it
 * builds the missing reports of the last closed periods, and mails those still owed). Job ids and schedule ids
 * deduplicate, so every process may run this.
 */
export async function recoverJobs(
  deps: DeviceServiceDeps,
  now: Date = new Date(),
): Promise<{ expired: number; expiries: number; installs: number; reenabled: number }> {
  const expired = await expireOverdue(deps.db);
  let expiries = 0;
  if (deps.jobs) {
    const open = await deps.db
      .selectFrom("device_commands")
      .select(["id", "expires_at"])
      .where("status", "in", OPEN_STATUSES)
      .where("expires_at", "is not", null)
      .execute();
    // One sweep per second of expiries, as issueCommand schedules them (scheduleExpiry asks once per second).
    const seconds = new Set(open.map((c) => Math.ceil(Date.parse(c.expires_at!) / EXPIRY_SWEEP_MS)));
    for (const second of seconds) await scheduleExpiry(deps, second * EXPIRY_SWEEP_MS);
    expiries = seconds.size;
  }
  const installs = await recoverInstallRetries(deps);
  // A midnight missed while the server was down is caught up now; the next one is scheduled (one job id per instant).
  const reenabled = await resetDailyBlocks(deps.db);
  await scheduleDailyReset(deps);
  if (deps.jobs) {
    await deps.jobs.enqueue("reports", {}, { jobId: `reports-start-${now.toISOString().slice(0, 13).replace(/\D/g, "")}` });
    await deps.jobs.repeat("reports", {}, REPORTS_SCHEDULE);
    await deps.jobs.repeat("daily-reset", {}, DAILY_RESET_SCHEDULE);
    await deps.jobs.repeat("webhook-sweep", {}, WEBHOOK_SWEEP_SCHEDULE);
    // Alerts: offline phones, and deliveries whose job was lost (jobs/alerts/deliver.ts), at start-up and every 5 minutes.
    await deps.jobs.enqueue("alert-tick", {}, { jobId: `alert-tick-start-${now.toISOString().slice(0, 16).replace(/\D/g, "")}` });
    await deps.jobs.repeat("alert-tick", {}, ALERT_TICK_SCHEDULE);
  }
  return { expired, expiries, installs, reenabled };
}
