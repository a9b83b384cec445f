/**
 * The alert pipeline's front (issue 55 item 3): an event (core/alert-events.ts) becomes one alert per recipient
 * parent (the kid's family parents and accepted, non-revoked delegates), written once per event id, with one
 * delivery row per channel (on, or skipped by the parent's switches), then one "alert-delivery" job per alert
 * (jobs/alerts/deliver.ts delivers). Also the event sources that need a memory of the phone's state: the conditions
 * (battery low, offline, tampering) that raise an alert once per spell.
 */
import { z } from "zod";
import { ALERT_CHANNELS, ALERT_KINDS, type AlertChannel, type AlertEvent, type AlertKind } from "../core/alert-events";
import { alertText, BATTERY_LOW_PERCENT, CLOCK_MOVED_MS, defaultEnabled } from "../core/alert-texts";
import { newId } from "../core/ids.server";
import { localDay } from "../core/zoned-time";
import type { DB } from "../db/index";
import { kidTimeZone } from "../db/queries/time-zone";
import type { DeviceServiceDeps } from "./context";
import { parentIdsForKid } from "./parents";
import { webhookTypeOfAlert } from "../core/webhooks";
import { enqueueWebhookEvent } from "./webhooks";

export type AlertDeps = Pick<DeviceServiceDeps, "db" | "log" | "jobs">;

const eventSchema = z.object({
  eventId: z.string().trim().min(1, "An alert event needs an id.").max(200, "An alert event id has at most 200 characters."),
  kind: z.enum(ALERT_KINDS, { errorMap: () => ({ message: `An alert's kind is one of: ${ALERT_KINDS.join(", ")}.` }) }),
  profileId: z.string().min(1, "An alert event names the kid.").max(100),
  deviceId: z.string().min(1).max(100).nullable(),
  at: z.string().datetime({ offset: true, message: "An alert event's time is an ISO date and time." }),
  details: z
    .record(z.union([z.string().max(500, "An alert detail has at most 500 characters."), z.number().finite()]))
    .refine((d) => Object.keys(d).length <= 20, "An alert event has at most 20 details."),
});

/** A refused event: nothing was stored. */
export class AlertEventError extends Error {}

/** The portal path an alert opens: requests open the kid's Requests page, the rest the alert centre. */
async function alertUrl(db: DB, e: AlertEvent): Promise<string> {
  if (e.kind.startsWith("request.") && e.deviceId) {
    const d = await db.selectFrom("devices").select("serial_number").where("id", "=", e.deviceId).executeTakeFirst();
    if (d) return `/requests?${new URLSearchParams({ profileId: e.profileId, serialNumber: d.serial_number })}`;
  }
  return `/alerts?${new URLSearchParams({ kid: e.profileId })}`;
}

/** The parents' switches for one kind: channel → on, for each parent (defaults where they changed nothing). */
export async function alertSwitches(db: DB, parentIds: string[], kind: AlertKind): Promise<Map<string, Record<AlertChannel, boolean>>> {
  const rows = parentIds.length
    ? await db
        .selectFrom("alert_preferences")
        .select(["parent_id", "channel", "enabled"])
        .where("parent_id", "in", parentIds)
        .where("kind", "=", kind)
        .execute()
    : [];
  const out = new Map<string, Record<AlertChannel, boolean>>();
  for (const p of parentIds)
    out.set(p, Object.fromEntries(ALERT_CHANNELS.map((c) => [c, defaultEnabled(kind, c)])) as Record<AlertChannel, boolean>);
  for (const r of rows) {
    const s = out.get(r.parent_id);
    if (s && (ALERT_CHANNELS as readonly string[]).includes(r.channel)) s[r.channel] = r.enabled === 1;
  }
  return out;
}

/**
 * Records one event: an alert for each recipient who has none for this event id yet (idempotent: the same event
 * recorded twice, or by two processes at once, stores and delivers it once), then queues their delivery. Returns
 * the new alerts' ids. A malformed event, or one about a kid that does not exist, is refused (AlertEventError) and
 * nothing is stored.
 */
export async function recordAlertEvent(deps: AlertDeps, event: AlertEvent, now: Date = new Date()): Promise<string[]> {
  const parsed = eventSchema.safeParse(event);
  if (!parsed.success) throw new AlertEventError(parsed.error.issues[0]?.message ?? "This alert event is not valid.");
  const e = { ...parsed.data, at: new Date(parsed.data.at).toISOString() } as AlertEvent;
  const kid = await deps.db.selectFrom("kid_profiles").select("name").where("id", "=", e.profileId).executeTakeFirst();
  if (!kid) throw new AlertEventError("This alert names a kid that does not exist.");
  const recipients = await parentIdsForKid(deps.db, e.profileId);
  if (!recipients.length) return [];
  const text = alertText(e.kind, kid.name, e.details);
  const url = await alertUrl(deps.db, e);
  const switches = await alertSwitches(deps.db, recipients, e.kind);
  const ts = now.toISOString();
  const created = await deps.db.transaction().execute(async (trx) => {
    const ids: string[] = [];
    for (const parentId of recipients) {
      const s = switches.get(parentId)!;
      const row = await trx
        .insertInto("alerts")
        .values({
          id: newId(),
          event_id: e.eventId,
          parent_id: parentId,
          kind: e.kind,
          profile_id: e.profileId,
          device_id: e.deviceId,
          at: e.at,
          title: text.title,
          body: text.body,
          url,
          in_centre: s.centre ? 1 : 0,
          read_at: null,
          created_at: ts,
        })
        .onConflict((oc) => oc.columns(["event_id", "parent_id"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) continue;
      await trx
        .insertInto("alert_deliveries")
        .values(
          ALERT_CHANNELS.map((channel) => ({
            alert_id: row.id,
            channel,
            state: s[channel] ? ("pending" as const) : ("skipped" as const),
            attempts: 0,
            next_at: ts,
            claimed_at: null,
            sent_at: null,
            error: null,
          })),
        )
        .execute();
      ids.push(row.id);
    }
    return ids;
  });
  for (const alertId of created) await queueAlertDelivery(deps, alertId);
  // The parents' webhooks hear places and alerts (requests and limits are sent from their own sources), once per event.
  const hook = created.length ? webhookTypeOfAlert(e.kind) : null;
  if (hook)
    await enqueueWebhookEvent(deps, {
      type: hook,
      profileId: e.profileId,
      eventId: `alert_${e.eventId}`,
      at: e.at,
      data: { kind: e.kind, deviceId: e.deviceId, title: text.title, body: text.body, ...e.details },
    });
  return created;
}

/**
 * Queues one alert's delivery. A lost job (Redis down) is not lost work: the alert tick re-queues every delivery
 * still pending (jobs/alerts/deliver.ts alertTick).
 */
export async function queueAlertDelivery(deps: AlertDeps, alertId: string, o: { delayMs?: number; tag?: string } = {}): Promise<void> {
  if (!deps.jobs) return;
  await deps.jobs
    .enqueue("alert-delivery", { alertId }, { delayMs: o.delayMs, jobId: `alert-${alertId}${o.tag ? `-${o.tag}` : ""}` })
    .catch((err: unknown) =>
      deps.log("warn", "alert delivery not queued", { alertId, error: err instanceof Error ? err.message : String(err) }),
    );
}

/** Records an event, never throwing at the caller (a phone's frame is not refused because an alert could not be written). */
export async function raiseAlert(deps: AlertDeps, event: AlertEvent): Promise<void> {
  try {
    await recordAlertEvent(deps, event);
  } catch (err) {
    deps.log("warn", "alert not recorded", {
      kind: event.kind,
      eventId: event.eventId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
}

// ---- conditions: a state raises its alert once per spell ----

export type AlertCondition =
  | "battery.low"
  | "phone.offline"
  | "tamper.protection-off"
  | "tamper.permissions-off"
  | "tamper.device-admin-removed"
  | "tamper.clock-moved";

/** What a phone's status says, for the conditions (device-service/socket/telemetry.ts child_status, device_info). */
export interface StatusFacts {
  batteryPercentage?: number;
  protectionState?: boolean;
  missingPermissions?: string[];
  deviceAdminActive?: boolean;
  /** The phone's clock when it sent the status (ISO). */
  deviceTime?: string;
  /** The phone is connected (a status arrived): its offline spell is over. */
  online?: boolean;
}

/**
 * Applies a status to the phone's conditions: a condition that starts raises its alert (once; the row stays while it
 * lasts), one that ended is cleared. One read when nothing changes (every status of a healthy phone).
 */
export async function applyStatusAlerts(
  deps: AlertDeps,
  device: { id: string; profile_id: string },
  facts: StatusFacts,
  now: Date = new Date(),
): Promise<void> {
  const want = new Map<AlertCondition, { on: boolean; details: Record<string, string | number> }>();
  if (facts.batteryPercentage !== undefined)
    want.set("battery.low", { on: facts.batteryPercentage < BATTERY_LOW_PERCENT, details: { percent: facts.batteryPercentage } });
  if (facts.protectionState !== undefined) want.set("tamper.protection-off", { on: !facts.protectionState, details: {} });
  if (facts.missingPermissions !== undefined)
    want.set("tamper.permissions-off", {
      on: facts.missingPermissions.length > 0,
      details: { permissions: facts.missingPermissions.join(", ").slice(0, 500) },
    });
  if (facts.deviceAdminActive !== undefined) want.set("tamper.device-admin-removed", { on: !facts.deviceAdminActive, details: {} });
  if (facts.deviceTime !== undefined) {
    const skew = Date.parse(facts.deviceTime) - now.getTime();
    if (Number.isFinite(skew))
      want.set("tamper.clock-moved", { on: Math.abs(skew) > CLOCK_MOVED_MS, details: { minutes: Math.round(skew / 60_000) } });
  }
  if (facts.online) want.set("phone.offline", { on: false, details: {} });
  if (!want.size) return;
  const held = new Set(
    (await deps.db.selectFrom("alert_conditions").select("condition").where("device_id", "=", device.id).execute()).map((r) => r.condition),
  );
  const ended = [...want].filter(([c, w]) => !w.on && held.has(c)).map(([c]) => c);
  if (ended.length)
    await deps.db.deleteFrom("alert_conditions").where("device_id", "=", device.id).where("condition", "in", ended).execute();
  for (const [condition, w] of want) {
    if (!w.on || held.has(condition)) continue;
    const since = await beginCondition(deps.db, device.id, condition, now.toISOString());
    if (!since) continue;
    // Battery: once per drop below 15 %, and at most once a day (the kid's day).
    const eventId =
      condition === "battery.low"
        ? `battery.low:${device.id}:${localDay(now, await kidTimeZone(deps.db, device.profile_id))}`
        : `${condition}:${device.id}:${since}`;
    await raiseAlert(deps, {
      eventId,
      kind: condition,
      profileId: device.profile_id,
      deviceId: device.id,
      at: now.toISOString(),
      details: w.details,
    });
  }
}

/** Starts a condition; its start time when this call started it, null when it was already on. */
export async function beginCondition(db: DB, deviceId: string, condition: AlertCondition, since: string): Promise<string | null> {
  const row = await db
    .insertInto("alert_conditions")
    .values({ device_id: deviceId, condition, since })
    .onConflict((oc) => oc.columns(["device_id", "condition"]).doNothing())
    .returning("since")
    .executeTakeFirst();
  return row?.since ?? null;
}

/**
 * Phones offline for more than `hours` (device_status.online 0 since its updated_at, the phone enrolled): each raises
 * phone.offline once per offline spell (the spell ends when the phone sends a status). Returns how many were raised.
 */
export async function raiseOfflineAlerts(deps: AlertDeps, hours: number, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - hours * 3_600_000).toISOString();
  const rows = await deps.db
    .selectFrom("device_status as s")
    .innerJoin("devices as d", "d.id", "s.device_id")
    .select(["d.id", "d.profile_id", "s.updated_at"])
    .where("s.online", "=", 0)
    .where("s.updated_at", "<", cutoff)
    .where("d.unenrolled_at", "is", null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("alert_conditions as c")
            .select("c.device_id")
            .whereRef("c.device_id", "=", "d.id")
            .where("c.condition", "=", "phone.offline"),
        ),
      ),
    )
    .orderBy("s.updated_at")
    .limit(500)
    .execute();
  let raised = 0;
  for (const r of rows) {
    const since = await beginCondition(deps.db, r.id, "phone.offline", r.updated_at);
    if (!since) continue;
    raised++;
    await raiseAlert(deps, {
      eventId: `phone.offline:${r.id}:${since}`,
      kind: "phone.offline",
      profileId: r.profile_id,
      deviceId: r.id,
      at: now.toISOString(),
      details: { hours: Math.floor((now.getTime() - Date.parse(since)) / 3_600_000) },
    });
  }
  return raised;
}

/** The reasons a phone stops an app that mean a daily limit was reached. */
export const LIMIT_REASONS = new Set(["Overuse", "Category Overuse", "Global Daily Limit Reach"]);

/** limit.reached: once per app (or the whole phone's limit) per kid's day. */
export async function raiseLimitReached(
  deps: AlertDeps,
  device: { id: string; profile_id: string },
  packageName: string,
  reason: string,
  now: Date = new Date(),
): Promise<void> {
  const day = localDay(now, await kidTimeZone(deps.db, device.profile_id));
  const global = reason === "Global Daily Limit Reach";
  const app = global
    ? null
    : await deps.db.selectFrom("catalog_apps").select("title").where("package_name", "=", packageName).executeTakeFirst();
  await raiseAlert(deps, {
    eventId: `limit.reached:${device.id}:${global ? "all" : packageName}:${day}`,
    kind: "limit.reached",
    profileId: device.profile_id,
    deviceId: device.id,
    at: now.toISOString(),
    details: global ? {} : { app: app?.title ?? packageName },
  });
}
