import { localDay, MINUTE_MS, safeTimeZone, zonedInstant } from "../core/zoned-time";
import type { DB } from "../db/index";
import type { PolicyDocument } from "./policy/build";
import { decide, nextChangeAt, type AppDecision, type UseInterval } from "./policy/enforce";
import { latestPolicy } from "./policy/store";

/**
 * The portal's side of the one decision (issue 21 item 7): what the phone decides for every app right now,
 * computed with the same `decide()` from the newest policy sent to the phone (the one it enforces once it has it)
 * and today's usage in the family's zone, so a page can say "25 minutes left today" or "Blocked by Bedtime until
 * 07:00". Reads only tables that move the dashboard's view_rev (device_policies, app_usage_hourly), so the page
 * cache stays true until `validUntil`, the next time-driven change (a window starting or ending, a break
 * ending, the kid's midnight).
 */
export interface DeviceExplanation {
  timeZone: string;
  decisions: Record<string, AppDecision>;
  /** The next time any of these decisions changes by time alone; null when there is no policy. */
  validUntil: Date | null;
}

const HOUR_MS = 60 * MINUTE_MS;

/** `latest`: the newest policy's document when the caller already reads it (the dashboard, with its ack state). */
export async function explainDevice(
  db: DB,
  deviceId: string,
  now: Date = new Date(),
  latest?: Promise<{ document: string } | undefined>,
): Promise<DeviceExplanation> {
  const policy: PolicyDocument | undefined = latest ? parsed((await latest)?.document) : (await latestPolicy(db, deviceId))?.doc;
  // No policy sent yet: the phone enforces nothing, so there is nothing to explain.
  if (!policy?.apps) return { timeZone: "UTC", decisions: {}, validUntil: null };
  const timeZone = safeTimeZone(policy.timeZone);
  const dayStart = zonedInstant(localDay(now, timeZone), 0, timeZone);
  const from = new Date(Math.floor(dayStart.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const rows = await db
    .selectFrom("app_usage_hourly")
    .select(["package_name", "hour", "minutes"])
    .where("device_id", "=", deviceId)
    .where("hour", ">=", from)
    .where("hour", "<=", now.toISOString())
    .execute();
  const usageToday: Record<string, number> = {};
  for (const r of rows) usageToday[r.package_name] = (usageToday[r.package_name] ?? 0) + Number(r.minutes);
  const hasSessions = policy.apps.some((a) => a.session) || policy.limits.categories.some((c) => c.session);
  const decisions = decide({ policy, usageToday, now, ...(hasSessions ? { recentUse: intervalsOf(rows, now) } : {}) });
  return {
    timeZone,
    decisions: Object.fromEntries(decisions.map((d) => [d.packageName, d])),
    validUntil: nextChangeAt(decisions, { policy, now }),
  };
}

function parsed(document: string | undefined): PolicyDocument | undefined {
  return document === undefined ? undefined : (JSON.parse(document) as PolicyDocument);
}

/**
 * The phone reports minutes per hour, not when in the hour: each hour's minutes are taken as used up to the end
 * of that hour (up to now in the current hour), the phone's pattern for use in a row.
 */
function intervalsOf(rows: { package_name: string; hour: string; minutes: number }[], now: Date): UseInterval[] {
  return rows
    .filter((r) => Number(r.minutes) > 0)
    .map((r) => {
      const end = new Date(Math.min(Date.parse(r.hour) + HOUR_MS, now.getTime()));
      return { packageName: r.package_name, start: new Date(end.getTime() - Number(r.minutes) * MINUTE_MS), end };
    })
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}
