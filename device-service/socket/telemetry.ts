import { sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema";
import { dbDialect, sqliteHandleOf, type DB } from "../../db/index";
import { bumpKidsOfPhones } from "../../db/view-revisions";
import { newId, nowIso } from "../../core/ids.server";
import { cleanPhoneValue } from "../../core/phone-text";
import { acknowledgeCommand } from "../commands/outbox";
import type { DeviceServiceDeps } from "../context";
import { hardwareColumns } from "../enrollment";
import { notifyParents } from "../notify";
import { recordInstallFailure, recordInstalled, resumeInstalls } from "../installs";
import { applyPolicy } from "../policy/store";
import { recordVisit } from "../browser";
import { recordAppState } from "./app-state";
import { firstTime } from "./receipts";
import { recordKidRating } from "../ratings";
import { enqueueWebhookEvent } from "../webhooks";
import type { DeviceMessage } from "./messages";
import type { IngestBatcher } from "./ingest-batch";
import { upsertStatus } from "./status-rows";
import type { PrivateDnsState } from "../../core/private-dns";
import { ingestPrivateDns, privateDnsAlertEvent } from "../private-dns";
import { applyStatusAlerts, raiseAlert } from "../alerts";
import { decidePlaces, handOn } from "../places";

export interface DeviceRef {
  id: string;
  profile_id: string;
  serial_number: string;
  /** When the phone was first enrolled (devices.created_at): telemetry before it (less a day) is refused. */
  enrolled_at: string;
  /**
   * The devices row's app version and push token as this connection last read or wrote them (from the
   * credential check): a status that changes neither writes nothing to devices. Absent: always written.
   */
  app_version?: string | null;
  fcm_token?: string | null;
  /** The phone's Private DNS as this connection last read or wrote it (device-service/private-dns.ts); undefined: not read yet. */
  private_dns?: PrivateDnsState | null;
}

type Tx = Transaction<Database>;

const hours = new Map<string, { start: number; hour: string }>();
/**
 * The hour an ISO time falls in: its start (ms) and as an ISO string; null for a time that is not one. Memoised: a
 * fleet's uploads name the same few hours (bounded), and a parse costs more than a lookup (the ingest
 * bench, docs/performance.md).
 */
function hourOf(iso: string): { start: number; hour: string } | null {
  let h = hours.get(iso);
  if (h === undefined) {
    const start = Math.floor(Date.parse(iso) / 3_600_000) * 3_600_000;
    if (!Number.isFinite(start)) return null; // an invalid time is not remembered
    h = { start, hour: new Date(start).toISOString() };
    if (hours.size >= 4_096) hours.clear();
    hours.set(iso, h);
  }
  return h;
}

/** The hour an ISO time falls in, as an ISO string; throws a RangeError on an invalid time. */
export function hourBucket(iso: string): string {
  const h = hourOf(iso);
  if (!h) throw new RangeError("Invalid time value");
  return h.hour;
}

/** Usage is physical: one hour holds at most 60 minutes, per app and for the whole phone. */
export const MAX_MINUTES_PER_HOUR = 60;
/** Usage buckets are accepted from a day before the phone's enrollment to a day ahead of now (clock skew). */
export const USAGE_WINDOW_SLACK_MS = 86_400_000;

export interface UsageBounds {
  /** devices.created_at: when the phone was first enrolled. */
  enrolledAt: string;
  now?: Date;
}

/**
 * Hourly usage upsert plus the daily rollup, in one transaction. Buckets carry absolute minutes, so a
 * retried upload rewrites the same values; the daily rows are recomputed from the hourly ones for the
 * affected (day, app) pairs, so nothing is ever counted twice. With `bounds` (every upload from a phone),
 * a bucket outside [enrollment − 1 day, now + 1 day] or an hour that would hold more than 60 minutes for the
 * whole phone refuses the frame (ProtocolError, nothing stored).
 */
/**
 * PostgreSQL: every writer of phones' usage locks those phones' rows first, in sorted order (so two writers never
 * wait on each other in a cycle). The group path adds each hour's change to the daily rows (ingest-usage.ts):
 * without the lock, two writers of the same phone at once (a resend through another process while the first
 * write is still open) would both read the hour as it was and add the change twice. SQLite has one writer.
 */
export async function lockPhonesForUsage(trx: Transaction<Database>, deviceIds: string[]): Promise<void> {
  if (!deviceIds.length) return;
  await sql`SELECT id FROM devices WHERE id = ANY(${[...new Set(deviceIds)].sort()}::text[]) ORDER BY id FOR NO KEY UPDATE`.execute(trx);
}

export async function ingestUsage(
  db: DB,
  deviceId: string,
  buckets: { packageName: string; hour: string; minutes: number }[],
  bounds?: UsageBounds,
): Promise<number> {
  if (bounds) checkUsageWindow(buckets, bounds);
  const byKey = new Map<string, { device_id: string; package_name: string; hour: string; minutes: number }>();
  for (const b of buckets) {
    const hour = hourBucket(b.hour);
    byKey.set(`${hour}|${b.packageName}`, { device_id: deviceId, package_name: b.packageName, hour, minutes: b.minutes });
  }
  const rows = [...byKey.values()];
  const days = [...new Set(rows.map((r) => r.hour.slice(0, 10)))].sort();
  const pkgs = [...new Set(rows.map((r) => r.package_name))];
  await db.transaction().execute(async (trx) => {
    if (dbDialect(db) === "postgres") await lockPhonesForUsage(trx, [deviceId]);
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto("app_usage_hourly")
        .values(rows.slice(i, i + 500))
        .onConflict((oc) =>
          oc.columns(["device_id", "hour", "package_name"]).doUpdateSet((eb) => ({ minutes: eb.ref("excluded.minutes") })),
        )
        .execute();
    }
    if (bounds) await checkHourTotals(trx, deviceId, [...new Set(rows.map((r) => r.hour))]);
    const affected = new Set(rows.map((r) => `${r.hour.slice(0, 10)}|${r.package_name}`));
    const from = `${days[0]}T00:00:00.000Z`;
    const to = new Date(Date.parse(`${days[days.length - 1]}T00:00:00.000Z`) + 86_400_000).toISOString();
    const sums: { package_name: string; day: string; minutes: number }[] = [];
    for (let i = 0; i < pkgs.length; i += 500) {
      const part = await trx
        .selectFrom("app_usage_hourly")
        .select(["package_name", sql<string>`substr(hour, 1, 10)`.as("day"), sql<number>`sum(minutes)`.as("minutes")])
        .where("device_id", "=", deviceId)
        .where("package_name", "in", pkgs.slice(i, i + 500))
        .where("hour", ">=", from)
        .where("hour", "<", to)
        .groupBy(["package_name", sql`substr(hour, 1, 10)`])
        .execute();
      sums.push(...part.filter((s) => affected.has(`${s.day}|${s.package_name}`)));
    }
    for (let i = 0; i < sums.length; i += 500) {
      await trx
        .insertInto("app_usage_daily")
        .values(
          sums
            .slice(i, i + 500)
            .map((s) => ({ device_id: deviceId, package_name: s.package_name, day: s.day, minutes: Number(s.minutes) })),
        )
        .onConflict((oc) => oc.columns(["device_id", "day", "package_name"]).doUpdateSet((eb) => ({ minutes: eb.ref("excluded.minutes") })))
        .execute();
    }
    await bumpKidsOfPhones(trx, [deviceId]); // the usage tables have no view-revision trigger (db/view-revisions.ts)
  });
  return rows.length;
}

export function checkUsageWindow(buckets: { hour: string }[], bounds: UsageBounds): void {
  const now = (bounds.now ?? new Date()).getTime();
  const from = Math.floor((Date.parse(bounds.enrolledAt) - USAGE_WINDOW_SLACK_MS) / 3_600_000) * 3_600_000;
  const to = now + USAGE_WINDOW_SLACK_MS;
  for (const b of buckets) {
    const t = hourOf(b.hour)?.start; // the start of its hour (undefined if invalid)
    if (t === undefined || t < from || t > to) {
      throw new ProtocolError(
        "OUT_OF_RANGE",
        `Usage hours must lie between a day before the phone was enrolled and a day from now (${b.hour.slice(0, 40)} does not).`,
      );
    }
  }
}

/** After the upsert, inside its transaction: any affected hour over 60 minutes for the phone refuses the frame. */
async function checkHourTotals(trx: Tx, deviceId: string, hours: string[]): Promise<void> {
  for (let i = 0; i < hours.length; i += 500) {
    const over = await trx
      .selectFrom("app_usage_hourly")
      .select(["hour", sql<number>`sum(minutes)`.as("minutes")])
      .where("device_id", "=", deviceId)
      .where("hour", "in", hours.slice(i, i + 500))
      .groupBy("hour")
      .having(sql`sum(minutes)`, ">", MAX_MINUTES_PER_HOUR)
      .orderBy("hour")
      .limit(1)
      .executeTakeFirst();
    if (over) {
      throw new ProtocolError(
        "TOO_MANY_MINUTES",
        `An hour has at most ${MAX_MINUTES_PER_HOUR} minutes of use on a phone; the hour from ${over.hour} would have ${Number(over.minutes)}.`,
      );
    }
  }
}

/**
 * Applies one validated message from a phone. Resolves once its effect is committed. With `ingest` (the
 * gateway's group commit, socket/ingest-batch.ts), usage and locations are written with other phones' in one
 * transaction, and this resolves after that transaction commits.
 */
export async function handleDeviceMessage(
  deps: DeviceServiceDeps,
  device: DeviceRef,
  msg: DeviceMessage,
  ingest?: IngestBatcher,
): Promise<void> {
  const { db } = deps;
  const ts = nowIso();
  // What the phone wrote is shown to parents: bidi controls and control characters are taken out here, where it
  // enters, for every event but the two without free text (core/phone-text.ts).
  if (msg.event !== "usage" && msg.event !== "location") msg = { ...msg, data: cleanPhoneValue(msg.data) } as DeviceMessage;
  switch (msg.event) {
    case "child_status": {
      const d = msg.data;
      // The phone's Private DNS: written when it changed; leaving the kid's filter (or coming back) is a transition.
      const dns = d.privateDns ? await ingestPrivateDns(deps, device, d.privateDns, ts) : null;
      await upsertStatus(db, device.id, {
        ...dns?.values,
        battery_percentage: d.batteryPercentage,
        battery_checked_at: ts,
        wifi_connected: d.wifiConnected ? 1 : 0,
        kids_app_status: d.kidsAppStatus,
        additional_data: d.kidsAppStatus === "Healthy" || d.missingPermissions.length === 0 ? null : d.missingPermissions.join(", "),
        app_version: d.appVersion,
        protection_state: d.protectionState ? 1 : 0,
        online: 1,
        ...(d.freeStorageMb !== undefined ? { free_storage_mb: d.freeStorageMb } : {}),
        online_process: deps.processId ?? null,
      });
      // Installs that failed for storage resume once the phone has more room than when they failed.
      if (d.freeStorageMb !== undefined) await resumeInstalls(deps, device.id, { freeStorageMb: d.freeStorageMb });
      // A reconnecting phone sends the version and token the row already holds: no write (one round trip fewer
      // per phone in a reconnect storm, and the row's kid pages keep their cached view).
      if (device.app_version === undefined || device.app_version !== d.appVersion || (d.fcmToken && d.fcmToken !== device.fcm_token)) {
        await db
          .updateTable("devices")
          .set({ app_version: d.appVersion, ...(d.fcmToken ? { fcm_token: d.fcmToken } : {}), updated_at: ts })
          .where("id", "=", device.id)
          .execute();
        device.app_version = d.appVersion;
        if (d.fcmToken) device.fcm_token = d.fcmToken;
      }
      if (d.policyVersion !== undefined) {
        // The phone says which policy it enforces: that acknowledges the version's command too.
        const p = await db
          .selectFrom("device_policies")
          .select(["command_id", "acknowledged_at"])
          .where("device_id", "=", device.id)
          .where("version", "=", d.policyVersion)
          .executeTakeFirst();
        if (p && !p.acknowledged_at && p.command_id)
          await acknowledgeCommand(
            deps,
            device.id,
            { commandId: p.command_id, status: "acknowledged", result: { via: "child_status" } },
            device.profile_id,
          );
      }
      await applyStatusAlerts(deps, device, {
        batteryPercentage: d.batteryPercentage,
        protectionState: d.protectionState,
        missingPermissions: d.missingPermissions,
        deviceAdminActive: d.deviceAdminActive,
        deviceTime: d.deviceTime,
        online: true,
      }).catch((err: unknown) =>
        deps.log("warn", "status alerts not checked", { deviceId: device.id, error: err instanceof Error ? err.message : String(err) }),
      );
      await notifyParents(deps, device.profile_id, "device.status");
      // Private DNS left the kid's filter: a tamper.private-dns alert (none when it comes back); and any listener.
      const dnsAlert = dns?.transition ? privateDnsAlertEvent(dns.transition) : null;
      if (dnsAlert) await raiseAlert(deps, dnsAlert);
      if (dns?.transition && deps.onPrivateDnsTransition)
        await Promise.resolve(deps.onPrivateDnsTransition(dns.transition)).catch((err: unknown) =>
          deps.log("warn", "private DNS transition not handled", {
            deviceId: device.id,
            error: err instanceof Error ? err.message : String(err),
          }),
        );
      return;
    }
    case "usage":
      if (ingest) return ingest.usage(device, msg.id, msg.data.buckets);
      await ingestUsage(db, device.id, msg.data.buckets, { enrolledAt: device.enrolled_at });
      return;
    case "location": {
      if (ingest) return ingest.location(device, msg.id, msg.data);
      const d = msg.data;
      const events = await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, device.id, msg.id, msg.event))) return [];
        const at = new Date(d.deviceTime).toISOString();
        const accuracy = d.accuracy ?? null;
        await trx
          .insertInto("device_locations")
          .values({
            id: newId(),
            device_id: device.id,
            latitude: d.latitude,
            longitude: d.longitude,
            device_time: at,
            received_at: ts,
            accuracy_m: accuracy,
          })
          .execute();
        const fix = {
          deviceId: device.id,
          profileId: device.profile_id,
          latitude: d.latitude,
          longitude: d.longitude,
          accuracyM: accuracy,
          at,
        };
        return decidePlaces(trx, [fix], ts, sqliteHandleOf(db));
      });
      handOn(events, deps.onAlertEvent, deps.log);
      await notifyParents(deps, device.profile_id, "device.location");
      return;
    }
    case "notification": {
      await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, device.id, msg.id, msg.event))) return;
        await trx
          .insertInto("notifications")
          .values({
            id: newId(),
            profile_id: device.profile_id,
            device_id: device.id,
            message: msg.data.message,
            type: msg.data.type,
            package_name: msg.data.packageName ?? null,
            created_at: ts,
            read_at: null,
          })
          .execute();
      });
      await notifyParents(deps, device.profile_id, "device.notification");
      return;
    }
    case "installed_apps": {
      const listed = new Map(msg.data.apps.map((a) => [a.packageName, a]));
      await db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom("profile_apps")
          .select(["id", "package_name", "is_installed"])
          .where("device_id", "=", device.id)
          .execute();
        const have = new Set(existing.map((e) => e.package_name));
        const gone = existing.filter((e) => e.is_installed === 1 && !listed.has(e.package_name)).map((e) => e.id);
        const back = existing.filter((e) => e.is_installed === 0 && listed.has(e.package_name)).map((e) => e.id);
        if (gone.length) await trx.updateTable("profile_apps").set({ is_installed: 0, updated_at: ts }).where("id", "in", gone).execute();
        if (back.length)
          await trx
            .updateTable("profile_apps")
            .set({ is_installed: 1, installation_failure_reason: null, updated_at: ts })
            .where("id", "in", back)
            .execute();
        const fresh = [...listed.values()].filter((a) => !have.has(a.packageName));
        if (fresh.length) {
          const catalog = await trx
            .selectFrom("catalog_apps")
            .select(["package_name", "genre_id"])
            .where(
              "package_name",
              "in",
              fresh.map((f) => f.packageName),
            )
            .execute();
          const genre = new Map(catalog.map((c) => [c.package_name, c.genre_id]));
          await trx
            .insertInto("profile_apps")
            .values(
              fresh.map((a) => ({
                id: newId(),
                profile_id: device.profile_id,
                device_id: device.id,
                package_name: a.packageName,
                // Not from the store: 'Others' (the dashboard's 'Manually Install' badge).
                play_store_category: genre.get(a.packageName) ?? "Others",
                disabled_type: null,
                installation_failure_reason: null,
                is_installed: 1,
                created_at: ts,
                updated_at: ts,
              })),
            )
            .execute();
        }
      });
      await notifyParents(deps, device.profile_id, "device.apps");
      return;
    }
    case "install_result": {
      const d = msg.data;
      if (d.status === "FAILED") await recordInstallFailure(deps, device.id, d.packageName, d.failureReason);
      else if (d.status === "INSTALLED") {
        await recordInstalled(deps, device, d.packageName);
        // The app is on the phone now: the policy lists it with the daily limit chosen at install.
        await applyPolicy(deps, device.id).catch((err: unknown) =>
          deps.log("warn", "policy not applied after install", {
            deviceId: device.id,
            error: err instanceof Error ? err.message : String(err),
          }),
        );
      } else
        await db
          .updateTable("profile_apps")
          .set({ is_installed: 0, install_state: null, updated_at: ts })
          .where("device_id", "=", device.id)
          .where("package_name", "=", d.packageName)
          .execute();
      await notifyParents(deps, device.profile_id, "device.install");
      return;
    }
    case "app_request": {
      const d = msg.data;
      const requestId = newId();
      const asked = await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, device.id, msg.id, msg.event))) return null;
        await trx
          .insertInto("app_requests")
          .values({
            id: requestId,
            profile_id: device.profile_id,
            device_id: device.id,
            package_name: d.packageName,
            request_type: d.requestType,
            extended_time: d.extendedTime,
            remarks: d.remarks ?? null,
            message_id: msg.id,
            created_at: ts,
            updated_at: ts,
          })
          .execute();
        const kid = await trx.selectFrom("kid_profiles").select("name").where("id", "=", device.profile_id).executeTakeFirst();
        const app = await trx.selectFrom("catalog_apps").select("title").where("package_name", "=", d.packageName).executeTakeFirst();
        const title = app?.title ?? d.packageName;
        const message =
          d.requestType === "App Install"
            ? `${kid?.name ?? "Your kid"} asked to install ${title}.`
            : d.requestType === "App Uninstall"
              ? `${kid?.name ?? "Your kid"} asked to uninstall ${title}.`
              : `${kid?.name ?? "Your kid"} asked for ${d.extendedTime} more minutes on ${title}.`;
        await trx
          .insertInto("notifications")
          .values({
            id: newId(),
            profile_id: device.profile_id,
            device_id: device.id,
            message,
            type: "app_request",
            package_name: d.packageName,
            created_at: ts,
            read_at: null,
          })
          .execute();
        return { title };
      });
      if (asked)
        await raiseAlert(deps, {
          eventId: `request:${requestId}`,
          kind:
            d.requestType === "App Install"
              ? "request.install"
              : d.requestType === "App Uninstall"
                ? "request.uninstall"
                : "request.extra-time",
          profileId: device.profile_id,
          deviceId: device.id,
          at: ts,
          details: { app: asked.title, minutes: d.extendedTime, ...(d.remarks ? { remarks: d.remarks.slice(0, 500) } : {}) },
        });
      await notifyParents(deps, device.profile_id, "device.request");
      if (asked)
        void enqueueWebhookEvent(deps, {
          type: "request.created",
          profileId: device.profile_id,
          eventId: `msg_req_${requestId}`,
          at: ts,
          data: {
            requestId,
            deviceId: device.id,
            requestType: d.requestType,
            packageName: d.packageName,
            ...(d.requestType === "Extend Time" ? { extendedMinutes: d.extendedTime } : {}),
          },
        });
      return;
    }
    case "browser_visit": {
      await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, device.id, msg.id, msg.event))) return;
        await recordVisit(trx, device.id, msg.data);
      });
      await notifyParents(deps, device.profile_id, "device.browser");
      return;
    }
    case "device_log": {
      await db.transaction().execute(async (trx) => {
        if (!(await firstTime(trx, device.id, msg.id, msg.event))) return;
        await trx
          .insertInto("device_logs")
          .values({
            id: newId(),
            device_id: device.id,
            title: msg.data.title ?? null,
            details: JSON.stringify(msg.data.details),
            device_time: msg.data.deviceTime ?? null,
            created_at: ts,
          })
          .execute();
      });
      await notifyParents(deps, device.profile_id, "device.logs");
      return;
    }
    case "device_info": {
      const { batteryLevel, batteryCheckedAt, serialNumber, ...hw } = msg.data;
      if (serialNumber !== device.serial_number)
        throw new ProtocolError("SERIAL_MISMATCH", "device_info.serialNumber is not this phone's serial number");
      await db
        .updateTable("devices")
        .set({ ...hardwareColumns(hw), updated_at: ts })
        .where("id", "=", device.id)
        .execute();
      if (batteryLevel !== undefined) {
        await upsertStatus(db, device.id, {
          battery_percentage: batteryLevel,
          battery_checked_at: batteryCheckedAt ? new Date(batteryCheckedAt).toISOString() : ts,
        });
        await applyStatusAlerts(deps, device, { batteryPercentage: batteryLevel }).catch((err: unknown) =>
          deps.log("warn", "status alerts not checked", { deviceId: device.id, error: err instanceof Error ? err.message : String(err) }),
        );
      }
      await notifyParents(deps, device.profile_id, "device.info");
      return;
    }
    case "app_state":
      await recordAppState(deps, device, msg.data, msg.id);
      return;
    case "kid_rating":
      await recordKidRating(deps, device, msg.id, msg.data);
      return;
    case "command_ack": {
      const r = await acknowledgeCommand(deps, device.id, msg.data, device.profile_id);
      if (!r) throw new ProtocolError("UNKNOWN_COMMAND", "No such command for this phone");
      return;
    }
  }
}

export class ProtocolError extends Error {
  constructor(
    public code: string,
    message: string,
    /** More for the phone's error frame's data (e.g. `retryAfterMs`). */
    public extra?: Record<string, unknown>,
    /** Already logged for this phone a moment ago (a flood's refusals are logged once a minute). */
    public quiet = false,
  ) {
    super(message);
  }
}
