import type { Transaction } from "kysely";
import type { Database } from "../../db/schema";
import { sqliteHandleOf, type DB } from "../../db/index";
import { newId, nowIso } from "../../core/ids.server";
import type { DeviceServiceDeps } from "../context";
import { notifyParents } from "../notify";
import { checkUsageWindow, hourBucket, type DeviceRef } from "./telemetry";
import { writeUsageRows, type UsageHour } from "./ingest-usage";
import { decidePlaces, handOn } from "../places";
import type { AlertEvent } from "../../core/alert-events";

/**
 * Group commit for telemetry (issue 22 item 3). Usage uploads and locations from many phones that arrive within
 * a few milliseconds are written in ONE transaction; each phone's frame is acknowledged only after that
 * transaction commits (the submit promise resolves then), so a crash before the commit means no ack and the
 * phone resends. Idempotent as before: usage buckets carry absolute minutes (a resend rewrites the same values)
 * and a location is stored once per (phone, message id) through device_message_receipts, in the same
 * transaction as the row.
 *
 * A batch whose transaction fails (one upload over 60 minutes in an hour, a deadlock, the database gone) is
 * retried item by item, each in its own transaction: the good ones commit and are acknowledged, the bad one
 * gets its own error, and when the database is gone every item fails and none is acknowledged.
 *
 * One batch is written at a time per process; uploads arriving meanwhile wait for the next one. Batches are paced:
 * one begins at most every `windowMs` (at once when `maxRows` rows wait), so an upload arriving at an idle batcher
 * is written at once and those arriving within the next `windowMs` go together. Each batch is a transaction, and
 * its fixed cost (BEGIN, the phones' lock, the statement, COMMIT: four round trips and a WAL flush) is most of an
 * upload's: with 50,000 phones uploading every 30 s over 4 processes, a 2 ms window gave batches of about one upload,
 * and pacing them at 50 ms took PostgreSQL from 0.59 to 0.29 cores and the device processes from 0.70 to 0.45
 * (the mixed-load bench, docs/performance.md). A batch written for longer than the window is followed at once.
 */

type Bucket = { packageName: string; hour: string; minutes: number };
type Location = { latitude: number; longitude: number; deviceTime: string; accuracy?: number };
type Work = { device: DeviceRef; id: string } & ({ kind: "usage"; buckets: Bucket[] } | { kind: "location"; data: Location });
type Item = Work & { resolve: () => void; reject: (err: unknown) => void };
type Tx = Transaction<Database>;

export interface IngestOptions {
  /** A batch begins at most this often (default 50 ms): items arriving meanwhile wait for it and join it. */
  windowMs?: number;
  /** A batch is flushed at once when it holds this many rows (usage buckets + locations; default 2,000). */
  maxRows?: number;
  /** Transactions a batch is split into, by kid, written at the same time (default 1 on SQLite, 2 on PostgreSQL). */
  lanes?: number;
  /** Tests: runs inside every batch transaction just before its commit (throw to make the commit fail). */
  beforeCommit?: (info: { items: number; retry: boolean }) => Promise<void> | void;
}

export interface IngestBatcher {
  /** Resolves once the upload is committed (then acknowledge it); rejects with ProtocolError or a storage error. */
  usage(device: DeviceRef, messageId: string, buckets: Bucket[]): Promise<void>;
  location(device: DeviceRef, messageId: string, data: Location): Promise<void>;
  /** Writes whatever is queued now. */
  flush(): Promise<void>;
  /** Flushes and refuses further items. */
  close(): Promise<void>;
  /** Batches written and items in them (the group transactions; retries item by item not counted). */
  stats(): { batches: number; items: number; retried: number };
}

/** A kid's lane: the same kid always in the same one. */
export function laneOf(profileId: string, lanes: number): number {
  let h = 0;
  for (let i = 0; i < profileId.length; i++) h = (h * 31 + profileId.charCodeAt(i)) | 0;
  return Math.abs(h) % lanes;
}

/** The batches' pace (IngestOptions.windowMs). */
export const INGEST_WINDOW_MS = 50;

const CHUNK = 500;
const chunks = <T>(xs: T[], n = CHUNK): T[][] => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export function createIngestBatcher(
  deps: Pick<DeviceServiceDeps, "db" | "bus" | "log" | "onAlertEvent">,
  opts: IngestOptions = {},
): IngestBatcher {
  const windowMs = opts.windowMs ?? INGEST_WINDOW_MS;
  const maxRows = opts.maxRows ?? 2_000;
  // SQLite has one connection (one writer); PostgreSQL writes a batch's lanes on two connections at once.
  const laneCount = opts.lanes ?? (sqliteHandleOf(deps.db) ? 1 : 2);
  let queue: Item[] = [];
  let queuedRows = 0;
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> | null = null;
  /** When the last batch began (performance.now()): the next one begins windowMs after it at the earliest. */
  let lastBegan = -Infinity;
  let closed = false;
  const counts = { batches: 0, items: 0, retried: 0 };

  function schedule() {
    if (writing) return; // the running batch takes the next one when it ends
    if (queuedRows >= maxRows) {
      if (timer) clearTimeout(timer);
      timer = null;
      void run();
    } else if (!timer) {
      // Never synchronously: the items submitted in this turn of the event loop go together.
      timer = setTimeout(() => ((timer = null), void run()), Math.max(0, lastBegan + windowMs - performance.now()));
    }
  }

  async function run(): Promise<void> {
    if (writing || queue.length === 0) return writing ?? undefined;
    const batch = queue;
    queue = [];
    queuedRows = 0;
    lastBegan = performance.now();
    writing = writeBatch(batch).finally(() => {
      writing = null;
      if (queue.length) schedule();
    });
    return writing;
  }

  async function writeBatch(batch: Item[]): Promise<void> {
    counts.batches++;
    counts.items += batch.length;
    // Kids split into lanes: each lane its own transaction on its own connection, at the same time. Lanes never
    // share a kid (nor so a phone, an hourly or daily row, or a kid_profiles row the triggers bump): no lock waits.
    const lanes: Item[][] = Array.from({ length: laneCount }, () => []);
    for (const it of batch) lanes[laneOf(it.device.profile_id, laneCount)].push(it);
    await Promise.all(lanes.filter((l) => l.length).map(writeLane));
  }

  async function writeLane(batch: Item[]): Promise<void> {
    try {
      const events = await deps.db.transaction().execute(async (trx) => {
        const decided = await writeItems(deps.db, trx, batch);
        await opts.beforeCommit?.({ items: batch.length, retry: false });
        return decided;
      });
      for (const it of batch) it.resolve();
      await afterCommit(batch, events);
      return;
    } catch (err) {
      if (batch.length === 1) {
        batch[0].reject(err);
        return;
      }
    }
    // The group failed: each item on its own, so one bad upload does not cost the others their ack.
    const ok: Item[] = [];
    const events: AlertEvent[] = [];
    for (const it of batch) {
      counts.retried++;
      try {
        const decided = await deps.db.transaction().execute(async (trx) => {
          const d = await writeItems(deps.db, trx, [it]);
          await opts.beforeCommit?.({ items: 1, retry: true });
          return d;
        });
        it.resolve();
        ok.push(it);
        events.push(...decided);
      } catch (err) {
        it.reject(err);
      }
    }
    await afterCommit(ok, events);
  }

  /**
   * Parents' open dashboards are told once per kid and batch (locations; usage is picked up by view_rev), and the
   * places' arrivals and departures the batch decided go to the alert sink.
   */
  async function afterCommit(items: Item[], events: readonly AlertEvent[]) {
    handOn(events, deps.onAlertEvent, deps.log);
    const kids = new Set(items.filter((i) => i.kind === "location").map((i) => i.device.profile_id));
    for (const profileId of kids) await notifyParents(deps, profileId, "device.location");
  }

  function submit(item: Work, rows: number): Promise<void> {
    if (closed) return Promise.reject(new Error("ingest closed"));
    return new Promise<void>((resolve, reject) => {
      queue.push({ ...item, resolve, reject });
      queuedRows += rows;
      schedule();
    });
  }

  return {
    usage(device, messageId, buckets) {
      try {
        checkUsageWindow(buckets, { enrolledAt: device.enrolled_at });
      } catch (err) {
        return Promise.reject(err);
      }
      return submit({ kind: "usage", device, id: messageId, buckets }, buckets.length);
    },
    location: (device, messageId, data) => submit({ kind: "location", device, id: messageId, data }, 1),
    async flush() {
      if (timer) clearTimeout(timer);
      timer = null;
      while (writing || queue.length) await (writing ?? run());
    },
    async close() {
      closed = true;
      await this.flush();
    },
    stats: () => ({ ...counts }),
  };
}

/**
 * Every item's effect, in arrival order, in the caller's transaction; returns the places' arrivals and departures
 * the new locations decided (to hand on after the commit). Throws if any upload is refused.
 */
async function writeItems(db: DB, trx: Tx, items: Item[]): Promise<AlertEvent[]> {
  const usage = items.filter((i): i is Extract<Item, { kind: "usage" }> => i.kind === "usage");
  const locations = items.filter((i): i is Extract<Item, { kind: "location" }> => i.kind === "location");
  if (usage.length) await writeUsage(db, trx, usage);
  return locations.length ? writeLocations(trx, locations, sqliteHandleOf(db)) : [];
}

async function writeUsage(db: DB, trx: Tx, items: { device: DeviceRef; buckets: Bucket[] }[]): Promise<void> {
  // Later uploads of the same (phone, hour, app) win, as they would one transaction after the other. Nested maps,
  // not a key string per bucket: each part is hashed once (the ingest bench, docs/performance.md).
  const byPhone = new Map<string, Map<string, Map<string, number>>>();
  for (const it of items) {
    let hours = byPhone.get(it.device.id);
    if (!hours) byPhone.set(it.device.id, (hours = new Map()));
    for (const b of it.buckets) {
      const hour = hourBucket(b.hour); // memoised (telemetry.ts): a batch names the same few hours
      let apps = hours.get(hour);
      if (!apps) hours.set(hour, (apps = new Map()));
      apps.set(b.packageName, b.minutes);
    }
  }
  // Phones in id order (PostgreSQL takes their row locks in that order too; telemetry.ts).
  const groups: UsageHour[] = [];
  for (const [device_id, hours] of [...byPhone].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    for (const [hour, apps] of hours) groups.push({ device_id, hour, apps });
  await writeUsageRows(db, trx, groups);
}

async function writeLocations(
  trx: Tx,
  items: { device: DeviceRef; id: string; data: Location }[],
  handle: ReturnType<typeof sqliteHandleOf>,
): Promise<AlertEvent[]> {
  // The same message twice in one batch: the first one counts (as one transaction after the other would).
  const first = new Map<string, (typeof items)[number]>();
  for (const it of items) if (!first.has(`${it.device.id}|${it.id}`)) first.set(`${it.device.id}|${it.id}`, it);
  const ts = nowIso();
  const fresh = new Set<string>();
  for (const part of chunks([...first.values()])) {
    const inserted = await trx
      .insertInto("device_message_receipts")
      .values(
        part.map((it) => ({
          device_id: it.device.id,
          message_id: it.id,
          received_at: ts,
          kind: "location",
        })),
      )
      .onConflict((oc) => oc.columns(["device_id", "message_id"]).doNothing())
      .returning(["device_id", "message_id"])
      .execute();
    for (const r of inserted) fresh.add(`${r.device_id}|${r.message_id}`);
  }
  const stored = [...first.entries()].filter(([k]) => fresh.has(k)).map(([, it]) => it);
  const rows = stored.map((it) => ({
    id: newId(),
    device_id: it.device.id,
    latitude: it.data.latitude,
    longitude: it.data.longitude,
    device_time: new Date(it.data.deviceTime).toISOString(),
    received_at: ts,
    accuracy_m: it.data.accuracy ?? null,
  }));
  for (const part of chunks(rows)) await trx.insertInto("device_locations").values(part).execute();
  return decidePlaces(
    trx,
    stored.map((it, i) => ({
      deviceId: it.device.id,
      profileId: it.device.profile_id,
      latitude: it.data.latitude,
      longitude: it.data.longitude,
      accuracyM: it.data.accuracy ?? null,
      at: rows[i].device_time,
    })),
    ts,
    handle,
  );
}
