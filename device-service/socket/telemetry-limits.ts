import { sql } from "kysely";
import type { DB } from "../../db/index";
import { DEVICE_LOG_MAX_BYTES, TELEMETRY_LIMITS, type LimitedTelemetry } from "../../core/limits";
import type { DeviceEvent, DeviceMessage } from "./messages";
import { ProtocolError, type DeviceRef } from "./telemetry";

/**
 * Per-phone limits on what a phone stores (issue 52, finding 2): notifications, device logs, browser visits, app
 * requests and locations each have a rate (a bucket of `perMinute` items that refills over a minute) and a daily
 * volume (`perDay` a UTC day), and a device log a size (DEVICE_LOG_MAX_BYTES of details). An item over any of them
 * is answered with an error frame saying which (TOO_LARGE, DAILY_LIMIT, RATE_LIMITED, with `retryAfterMs` when
 * waiting helps) and is not stored; nothing stored before is touched. The phone has its answer, so it does not resend
 * the item for ever (the simulator drops an answered frame from its resend list, as the kids app does).
 *
 * Cost on the ingest path: none per message beyond a few map lookups. The counts live in this process's memory; the
 * day's count is read from the database once per phone, day and process, when the phone first sends a limited item
 * that day (one indexed COUNT over its receipts of the day: every stored item leaves one, with its kind, in the
 * transaction that stores it; socket/receipts.ts). A phone talks to one process at a time: after a reconnect to
 * another process, that process starts from what is stored, so the daily cap holds across processes and restarts.
 * The rate bucket is per process (a reconnect elsewhere starts with a full bucket; the daily cap still holds).
 */
export interface TelemetryLimiter {
  /** Throws a ProtocolError when the item may not be stored; returns (or resolves) when it may. */
  admit(device: DeviceRef, msg: DeviceMessage): Promise<void> | void;
  /** The item was stored (its ack goes out): it counts towards the phone's day. */
  stored(device: DeviceRef, event: DeviceEvent): void;
}

export interface TelemetryLimitOptions {
  /** Tests: other numbers than TELEMETRY_LIMITS. */
  limits?: Partial<Record<LimitedTelemetry, { perMinute: number; perDay: number }>>;
  /** Tests: the clock (ms since the epoch). */
  now?: () => number;
  /** Phones whose counts are kept in memory at most (the oldest is forgotten; its day is read again when it is back). */
  maxPhones?: number;
}

const KINDS = Object.keys(TELEMETRY_LIMITS) as LimitedTelemetry[];
const isLimited = (e: string): e is LimitedTelemetry => e in TELEMETRY_LIMITS;

/** A refusal is logged once a minute per phone; the flood behind it is answered without a log line each. */
const LOG_EVERY_MS = 60_000;

interface PhoneState {
  day: string;
  /** Items stored today per kind, once read from the database. */
  counts: Record<LimitedTelemetry, number> | null;
  loading: Promise<void> | null;
  buckets: Partial<Record<LimitedTelemetry, { tokens: number; at: number }>>;
  loggedAt: number;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextUtcMidnight = (ms: number) => (Math.floor(ms / 86_400_000) + 1) * 86_400_000;
const thousands = (n: number) => n.toLocaleString("en-US");

export function createTelemetryLimiter(db: DB, opts: TelemetryLimitOptions = {}): TelemetryLimiter {
  const clock = opts.now ?? Date.now;
  const maxPhones = opts.maxPhones ?? 100_000;
  const limitOf = (k: LimitedTelemetry) => ({ ...TELEMETRY_LIMITS[k], ...opts.limits?.[k] });
  const phones = new Map<string, PhoneState>();

  function stateOf(deviceId: string, day: string): PhoneState {
    let s = phones.get(deviceId);
    if (!s) {
      if (phones.size >= maxPhones) phones.delete(phones.keys().next().value!);
      phones.set(deviceId, (s = { day, counts: null, loading: null, buckets: {}, loggedAt: -Infinity }));
    }
    if (s.day !== day) {
      s.day = day;
      s.counts = null;
    }
    return s;
  }

  async function load(s: PhoneState, deviceId: string, day: string): Promise<void> {
    const rows = await db
      .selectFrom("device_message_receipts")
      .select(["kind", sql<number | string>`count(*)`.as("n")])
      .where("device_id", "=", deviceId)
      .where("received_at", ">=", `${day}T00:00:00.000Z`)
      .where("kind", "in", KINDS)
      .groupBy("kind")
      .execute();
    const counts = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<LimitedTelemetry, number>;
    for (const r of rows) if (r.kind && isLimited(r.kind)) counts[r.kind] = Number(r.n);
    if (s.day === day) s.counts = counts;
  }

  function refuse(s: PhoneState, now: number, code: string, message: string, extra: Record<string, unknown>): never {
    const quiet = now - s.loggedAt < LOG_EVERY_MS;
    if (!quiet) s.loggedAt = now;
    throw new ProtocolError(code, message, extra, quiet);
  }

  function check(s: PhoneState, kind: LimitedTelemetry, now: number): void {
    const lim = limitOf(kind);
    if (s.counts![kind] >= lim.perDay)
      refuse(
        s,
        now,
        "DAILY_LIMIT",
        `This phone has stored ${thousands(lim.perDay)} ${lim.noun} today, the most a day; this one was not stored. New ones are taken again from midnight UTC.`,
        { retryAfterMs: nextUtcMidnight(now) - now },
      );
    const b = s.buckets[kind] ?? (s.buckets[kind] = { tokens: lim.perMinute, at: now });
    b.tokens = Math.min(lim.perMinute, b.tokens + ((now - b.at) * lim.perMinute) / 60_000);
    b.at = now;
    if (b.tokens < 1) {
      const waitMs = Math.ceil(((1 - b.tokens) * 60_000) / lim.perMinute);
      refuse(
        s,
        now,
        "RATE_LIMITED",
        `This phone sent more than ${thousands(lim.perMinute)} ${lim.noun} in a minute; this one was not stored. Send it again in ${Math.ceil(waitMs / 1000)} s.`,
        { retryAfterMs: waitMs },
      );
    }
    b.tokens -= 1;
  }

  function admit(device: DeviceRef, msg: DeviceMessage): Promise<void> | void {
    const kind = msg.event;
    if (!isLimited(kind)) return;
    if (msg.event === "device_log") {
      const bytes = Buffer.byteLength(JSON.stringify(msg.data.details));
      if (bytes > DEVICE_LOG_MAX_BYTES)
        throw new ProtocolError(
          "TOO_LARGE",
          `A device log's details are at most ${thousands(DEVICE_LOG_MAX_BYTES)} bytes; this one has ${thousands(bytes)} and was not stored.`,
        );
    }
    const now = clock();
    const day = utcDay(now);
    const s = stateOf(device.id, day);
    if (s.counts) return check(s, kind, now);
    s.loading ??= load(s, device.id, day).finally(() => (s.loading = null));
    return s.loading.then(() => (s.counts ? check(s, kind, now) : admit(device, msg))); // no counts: the day turned meanwhile
  }

  return {
    admit,
    stored(device, event) {
      if (!isLimited(event)) return;
      const s = phones.get(device.id);
      if (s?.counts && s.day === utcDay(clock())) s.counts[event]++;
    },
  };
}
