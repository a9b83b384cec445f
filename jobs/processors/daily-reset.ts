import type { DB } from "../../db/index";
import { limitDay } from "../../db/queries/usage-today";
import type { DeviceServiceDeps } from "../../device-service/context";
import { notifyParents } from "../../device-service/notify";
import type { Payload } from "../queues";

/** Blocks that last for the day of usage they came from; the parent's own ("Manually") and schedules ("Cronjob") stay. */
export const DAILY_BLOCKS = ["Overuse", "Category Overuse", "Global Daily Limit Reach", "Session Break"] as const;

/** The next kid's midnight after `now` (UTC until families have a time zone). */
export function nextResetAt(now: Date): Date {
  return new Date(`${limitDay(new Date(now.getTime() + 86_400_000))}T00:00:00.000Z`);
}

/**
 * Re-enables every app a phone stopped for yesterday's (or older) usage. The phones re-derive the same at their
 * own midnight and say so; this keeps the portal right for a phone that is off at midnight. Idempotent: a block
 * reported today is today's and is left alone. Returns how many apps it re-enabled.
 */
export async function resetDailyBlocks(db: DB, now: Date = new Date()): Promise<number> {
  const res = await db
    .updateTable("profile_apps")
    .set({ is_app_disabled: 0, disabled_type: null, updated_at: now.toISOString() })
    .where("is_app_disabled", "=", 1)
    .where("disabled_type", "in", DAILY_BLOCKS)
    .where("updated_at", "<", `${limitDay(now)}T00:00:00.000Z`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Schedules the next midnight's reset; the job id (one per day) makes every process's call the same job. */
export async function scheduleDailyReset(deps: Pick<DeviceServiceDeps, "jobs">, now: Date = new Date()): Promise<void> {
  const at = nextResetAt(now);
  await deps.jobs?.enqueue("daily-reset", { day: limitDay(at) }, { jobId: `daily-reset-${limitDay(at)}`, delayMs: at.getTime() - now.getTime() });
}

/** The midnight job: clears the day's blocks, tells the kids' parents' dashboards, schedules tomorrow's. */
export async function dailyReset(deps: DeviceServiceDeps, _p: Payload<"daily-reset">, now: Date = new Date()): Promise<void> {
  const kids = await staleKids(deps.db, now);
  await resetDailyBlocks(deps.db, now);
  for (const k of kids) await notifyParents(deps, k, "apps.daily-reset");
  await scheduleDailyReset(deps, now);
}

async function staleKids(db: DB, now: Date): Promise<string[]> {
  const rows = await db
    .selectFrom("profile_apps")
    .select("profile_id")
    .distinct()
    .where("is_app_disabled", "=", 1)
    .where("disabled_type", "in", DAILY_BLOCKS)
    .where("updated_at", "<", `${limitDay(now)}T00:00:00.000Z`)
    .execute();
  return rows.map((r) => r.profile_id);
}
