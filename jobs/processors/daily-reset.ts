import { localDay, nextMidnight, safeTimeZone, zonedInstant } from "../../core/zoned-time";
import type { DB } from "../../db/index";
import type { DeviceServiceDeps } from "../../device-service/context";
import { notifyParents } from "../../device-service/notify";
import type { Payload } from "../../core/job-queues";

/** Blocks that last for the day of usage they came from; the parent's own ("Manually") and schedules ("Cronjob") stay. */
export const DAILY_BLOCKS = ["Overuse", "Category Overuse", "Global Daily Limit Reach", "Session Break"] as const;

/**
 * The safety tick: every 15 minutes (every zone's offset from UTC is a whole multiple of 15 minutes), so a family
 * whose midnight job was lost is reset at most a quarter of an hour late. Registered by recoverJobs.
 */
export const DAILY_RESET_SCHEDULE = { id: "daily-reset-tick", everyMs: 15 * 60_000 } as const;

/** The families' zones as stored (raw names), grouped by the zone Intl reads them as (unknown names are UTC). */
async function familyZones(db: DB): Promise<Map<string, string[]>> {
  const rows = await db.selectFrom("parents").select("time_zone").distinct().execute();
  const zones = new Map<string, string[]>();
  for (const r of rows) {
    const zone = safeTimeZone(r.time_zone);
    zones.set(zone, [...(zones.get(zone) ?? []), r.time_zone]);
  }
  if (!zones.size) zones.set("UTC", ["UTC"]);
  return zones;
}

/** For each zone a family lives in: the instant its kids' today began (a block older than it is yesterday's). */
export async function familyCutoffs(db: DB, now: Date): Promise<{ zone: string; names: string[]; cutoff: string }[]> {
  return [...(await familyZones(db))].map(([zone, names]) => ({
    zone,
    names,
    cutoff: zonedInstant(localDay(now, zone), 0, zone).toISOString(),
  }));
}

/** The earliest kid's midnight after `now` over every family's zone (when the next reset is due). */
export async function nextResetAt(db: DB, now: Date): Promise<Date> {
  const next = [...(await familyZones(db)).keys()].map((z) => nextMidnight(now, z).getTime());
  return new Date(Math.min(...next));
}

/** The kids (of families in `names`) whose apps carry a daily block from before `cutoff`. */
function staleApps(db: DB, names: string[], cutoff: string) {
  return db
    .selectFrom("profile_apps")
    .where("is_app_disabled", "=", 1)
    .where("disabled_type", "in", DAILY_BLOCKS)
    .where("updated_at", "<", cutoff)
    .where(
      "profile_id",
      "in",
      db
        .selectFrom("kid_profiles")
        .innerJoin("parents", "parents.id", "kid_profiles.parent_id")
        .select("kid_profiles.id")
        .where("parents.time_zone", "in", names),
    );
}

/**
 * Re-enables every app a phone stopped for yesterday's (or older) usage, each family at its own local midnight
 * (parents.time_zone). The phones re-derive the same at their midnight and say so; this keeps the portal right for
 * a phone that is off at midnight. Idempotent and re-derivable from the database alone: a block reported since
 * the kid's midnight is today's and is left alone; no "last reset" is kept. Returns how many apps it re-enabled
 * and the kids touched.
 */
export async function resetDailyBlocks(db: DB, now: Date = new Date()): Promise<number> {
  return (await resetFamilies(db, now)).reenabled;
}

async function resetFamilies(db: DB, now: Date): Promise<{ reenabled: number; kids: string[] }> {
  let reenabled = 0;
  const kids = new Set<string>();
  for (const { names, cutoff } of await familyCutoffs(db, now)) {
    const stale = await staleApps(db, names, cutoff).select("profile_id").distinct().execute();
    if (!stale.length) continue;
    for (const r of stale) kids.add(r.profile_id);
    const res = await db
      .updateTable("profile_apps")
      .set({ is_app_disabled: 0, disabled_type: null, updated_at: now.toISOString() })
      .where("id", "in", staleApps(db, names, cutoff).select("profile_apps.id"))
      .executeTakeFirst();
    reenabled += Number(res.numUpdatedRows);
  }
  return { reenabled, kids: [...kids] };
}

/** Schedules the reset at the next kid's midnight; the job id (one per instant) makes every process's call the same job. */
export async function scheduleDailyReset(deps: Pick<DeviceServiceDeps, "jobs" | "db">, now: Date = new Date()): Promise<void> {
  if (!deps.jobs) return;
  const at = await nextResetAt(deps.db, now);
  const id = at.toISOString().slice(0, 16).replace(/\D/g, "");
  await deps.jobs.enqueue(
    "daily-reset",
    { day: at.toISOString().slice(0, 10) },
    { jobId: `daily-reset-${id}`, delayMs: Math.max(0, at.getTime() - now.getTime()) },
  );
}

/** The midnight job (and the 15-minute tick): clears yesterday's blocks family by family, tells the parents' dashboards, schedules the next midnight. */
export async function dailyReset(deps: DeviceServiceDeps, _p: Payload<"daily-reset">, now: Date = new Date()): Promise<void> {
  const { kids } = await resetFamilies(deps.db, now);
  for (const k of kids) await notifyParents(deps, k, "apps.daily-reset");
  await scheduleDailyReset(deps, now);
}
