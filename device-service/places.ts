import type { Transaction } from "kysely";
import type SQLite from "better-sqlite3";
import type { Database } from "../db/schema";
import type { AlertEvent } from "../core/alert-events";
import { decideFence, type KnownPresence } from "../core/geofence";

/**
 * Arrivals and departures (issue 55 item 1), decided on the server from the phones' location reports, in the
 * transaction that stores the reports (socket/ingest-batch.ts, socket/telemetry.ts): a report is stored once per
 * (phone, message id), so a re-sent report is never decided twice.
 *
 * Per batch: one statement reads the places that apply to the batch's kids (their own and their family's), one
 * the phones' presence at those places; then each fix, in the phone's time order, goes through the pure decision
 * (core/geofence.ts), and only what changed is written: the presence rows (once per phone and place when first
 * decided, then once per transition) and one place_events row per transition, whose id is the alert's event id
 * (inserted once: a second attempt at the same transition writes and hands on nothing). A batch of kids without
 * places costs the one read.
 *
 * The transitions come back as AlertEvents (kinds place.arrive / place.leave) for the caller to hand to
 * `onAlertEvent` after the commit.
 */

export interface LocatedFix {
  deviceId: string;
  profileId: string;
  latitude: number;
  longitude: number;
  accuracyM: number | null;
  /** ISO, the phone's clock. */
  at: string;
}

type Tx = Transaction<Database>;
const CHUNK = 500;

/** The event id of one transition: the same (place, phone, fix time, kind) is the same event. */
export const placeEventId = (kind: "arrive" | "leave", placeId: string, deviceId: string, at: string) =>
  `place.${kind}:${placeId}:${deviceId}:${at}`;

type PlaceRow = { id: string; name: string; latitude: number; longitude: number; radius_m: number; kid_id: string };
type PresenceRow = { device_id: string; place_id: string; state: "inside" | "outside"; since: string };
type EventRow = {
  id: string;
  place_id: string;
  device_id: string;
  profile_id: string;
  kind: "arrive" | "leave";
  place_name: string;
  at: string;
};

/** SQLite: prepared single-row statements on the connection the transaction holds (as socket/ingest-usage.ts). */
type Statements = { places: SQLite.Statement; presence: SQLite.Statement; upsert: SQLite.Statement; event: SQLite.Statement };
const prepared = new WeakMap<SQLite.Database, Statements>();
function statements(handle: SQLite.Database): Statements {
  let s = prepared.get(handle);
  if (!s) {
    s = {
      places: handle.prepare(
        "SELECT p.id, p.name, p.latitude, p.longitude, p.radius_m, k.id AS kid_id FROM kid_profiles k JOIN places p ON p.parent_id = k.parent_id WHERE k.id = ? AND (p.profile_id IS NULL OR p.profile_id = k.id)",
      ),
      presence: handle.prepare("SELECT device_id, place_id, state, since FROM place_presence WHERE device_id = ?"),
      upsert: handle.prepare(
        "INSERT INTO place_presence (device_id, place_id, state, since) VALUES (?, ?, ?, ?) ON CONFLICT (device_id, place_id) DO UPDATE SET state = excluded.state, since = excluded.since",
      ),
      event: handle.prepare(
        "INSERT INTO place_events (id, place_id, device_id, profile_id, kind, place_name, at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
      ),
    };
    prepared.set(handle, s);
  }
  return s;
}

/**
 * `handle`: the SQLite connection behind `trx` (db/index.ts sqliteHandleOf), for the prepared statements; absent on
 * PostgreSQL, where each step is one multi-row statement.
 */
export async function decidePlaces(trx: Tx, fixes: readonly LocatedFix[], now: string, handle?: SQLite.Database): Promise<AlertEvent[]> {
  if (fixes.length === 0) return [];
  const kids = [...new Set(fixes.map((f) => f.profileId))];
  const st = handle ? statements(handle) : null;
  const places: PlaceRow[] = [];
  if (st) for (const k of kids) places.push(...(st.places.all(k) as PlaceRow[]));
  else
    for (let i = 0; i < kids.length; i += CHUNK) {
      const part = kids.slice(i, i + CHUNK);
      places.push(
        ...(await trx
          .selectFrom("kid_profiles")
          .innerJoin("places", "places.parent_id", "kid_profiles.parent_id")
          .select(["places.id", "places.name", "places.latitude", "places.longitude", "places.radius_m", "kid_profiles.id as kid_id"])
          .where("kid_profiles.id", "in", part)
          .where((eb) => eb.or([eb("places.profile_id", "is", null), eb("places.profile_id", "=", eb.ref("kid_profiles.id"))]))
          .execute()),
      );
    }
  if (places.length === 0) return [];
  const placesOf = new Map<string, typeof places>();
  for (const p of places) {
    let list = placesOf.get(p.kid_id);
    if (!list) placesOf.set(p.kid_id, (list = []));
    list.push(p);
  }
  const located = fixes.filter((f) => placesOf.has(f.profileId));
  const devices = [...new Set(located.map((f) => f.deviceId))];
  const presence = new Map<string, KnownPresence>();
  if (st)
    for (const d of devices)
      for (const r of st.presence.all(d) as PresenceRow[]) presence.set(`${r.device_id}|${r.place_id}`, { state: r.state, since: r.since });
  else
    for (let i = 0; i < devices.length; i += CHUNK) {
      const rows = await trx
        .selectFrom("place_presence")
        .select(["device_id", "place_id", "state", "since"])
        .where("device_id", "in", devices.slice(i, i + CHUNK))
        .execute();
      for (const r of rows) presence.set(`${r.device_id}|${r.place_id}`, { state: r.state, since: r.since });
    }
  // Each phone's fixes in its own time order (a batch may hold several of one phone, sent in any order).
  const ordered = [...located].sort((a, b) =>
    a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : a.at < b.at ? -1 : a.at > b.at ? 1 : 0,
  );
  const changed = new Map<string, PresenceRow>();
  const transitions: EventRow[] = [];
  for (const fix of ordered) {
    for (const place of placesOf.get(fix.profileId)!) {
      const key = `${fix.deviceId}|${place.id}`;
      const d = decideFence(
        presence.get(key) ?? null,
        { latitude: fix.latitude, longitude: fix.longitude, accuracyM: fix.accuracyM, at: fix.at },
        { latitude: Number(place.latitude), longitude: Number(place.longitude), radiusM: place.radius_m },
      );
      if (!d.change) continue;
      presence.set(key, { state: d.state, since: fix.at });
      changed.set(key, { device_id: fix.deviceId, place_id: place.id, state: d.state, since: fix.at });
      if (d.event)
        transitions.push({
          id: placeEventId(d.event, place.id, fix.deviceId, fix.at),
          place_id: place.id,
          device_id: fix.deviceId,
          profile_id: fix.profileId,
          kind: d.event,
          place_name: place.name,
          at: fix.at,
        });
    }
  }
  // Rows in key order (PostgreSQL takes their locks in that order: no deadlock between lanes or processes).
  const rows = [...changed.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
  if (st) for (const r of rows) st.upsert.run(r.device_id, r.place_id, r.state, r.since);
  else
    for (let i = 0; i < rows.length; i += CHUNK)
      await trx
        .insertInto("place_presence")
        .values(rows.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc.columns(["device_id", "place_id"]).doUpdateSet((eb) => ({ state: eb.ref("excluded.state"), since: eb.ref("excluded.since") })),
        )
        .execute();
  const fresh = new Set<string>();
  if (st) {
    for (const t of transitions)
      if (st.event.run(t.id, t.place_id, t.device_id, t.profile_id, t.kind, t.place_name, t.at, now).changes > 0) fresh.add(t.id);
  } else
    for (let i = 0; i < transitions.length; i += CHUNK) {
      const stored = await trx
        .insertInto("place_events")
        .values(transitions.slice(i, i + CHUNK).map((t) => ({ ...t, created_at: now })))
        .onConflict((oc) => oc.column("id").doNothing())
        .returning("id")
        .execute();
      for (const r of stored) fresh.add(r.id);
    }
  return transitions
    .filter((t) => fresh.has(t.id))
    .map((t) => ({
      eventId: t.id,
      kind: t.kind === "arrive" ? ("place.arrive" as const) : ("place.leave" as const),
      profileId: t.profile_id,
      deviceId: t.device_id,
      at: t.at,
      details: { placeName: t.place_name, placeId: t.place_id },
    }));
}

/** Hands each event to the sink; a sink that throws is logged, never fails the ingest (the reports are stored). */
export function handOn(
  events: readonly AlertEvent[],
  sink: ((e: AlertEvent) => void) | undefined,
  log: (level: "warn", msg: string, extra?: Record<string, unknown>) => void,
): void {
  if (!sink) return;
  for (const e of events) {
    try {
      sink(e);
    } catch (err) {
      log("warn", "alert sink failed", { eventId: e.eventId, error: err instanceof Error ? err.message : String(err) });
    }
  }
}
