import type { DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";

/**
 * Places and the location trail for the map page (issue 55 items 1 and 2). The arrivals and departures themselves
 * are decided at ingest (device-service/places.ts); these are the parents' reads and writes.
 */

/** How long locations (the trail) and place events are kept, in days (jobs/housekeeping.ts prunes them). */
export const TRAIL_RETENTION_DAYS = 30;

export interface PlaceView {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radiusM: number;
  /** "kid": this kid's own place; "family": every kid of the family's. */
  scope: "kid" | "family";
  /** Whether a phone of the kid is inside now, and since when (the phone's time), or null when none is. */
  insideSince: string | null;
}

/** The places that apply to a kid (their own and their family's), by name, with whether the kid is there now. */
export async function listKidPlaces(db: DB, kid: { id: string; parent_id: string }): Promise<PlaceView[]> {
  const places = await db
    .selectFrom("places")
    .select(["id", "name", "latitude", "longitude", "radius_m", "profile_id"])
    .where("parent_id", "=", kid.parent_id)
    .where((eb) => eb.or([eb("profile_id", "is", null), eb("profile_id", "=", kid.id)]))
    .orderBy("name")
    .orderBy("id")
    .execute();
  if (places.length === 0) return [];
  const inside = await db
    .selectFrom("place_presence")
    .innerJoin("devices", "devices.id", "place_presence.device_id")
    .select(["place_presence.place_id", "place_presence.since"])
    .where("devices.profile_id", "=", kid.id)
    .where("place_presence.state", "=", "inside")
    .where(
      "place_presence.place_id",
      "in",
      places.map((p) => p.id),
    )
    .execute();
  const since = new Map<string, string>();
  for (const r of inside) if (!since.has(r.place_id) || r.since < since.get(r.place_id)!) since.set(r.place_id, r.since);
  return places.map((p) => ({
    id: p.id,
    name: p.name,
    latitude: Number(p.latitude),
    longitude: Number(p.longitude),
    radiusM: p.radius_m,
    scope: p.profile_id ? "kid" : "family",
    insideSince: since.get(p.id) ?? null,
  }));
}

/** A place as stored, for the authorisation check of an edit or a delete (undefined: no such place). */
export function findPlace(db: DB, placeId: string) {
  return db.selectFrom("places").select(["id", "parent_id", "profile_id", "name"]).where("id", "=", placeId).executeTakeFirst();
}

export interface PlaceInput {
  name: string;
  latitude: number;
  longitude: number;
  radiusM: number;
}

export async function createPlace(
  db: DB,
  owner: { familyId: string; profileId: string | null; by: string },
  input: PlaceInput,
  now: Date = new Date(),
): Promise<string> {
  const id = newId();
  const ts = nowIso(now);
  await db
    .insertInto("places")
    .values({
      id,
      parent_id: owner.familyId,
      profile_id: owner.profileId,
      name: input.name,
      latitude: input.latitude,
      longitude: input.longitude,
      radius_m: input.radiusM,
      created_by: owner.by,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return id;
}

/**
 * Changes a place; a moved or resized place forgets who was inside (the next fix decides again, without an event:
 * a parent's edit is not a kid's arrival).
 */
export async function updatePlace(db: DB, placeId: string, input: PlaceInput, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("places")
      .select(["latitude", "longitude", "radius_m"])
      .where("id", "=", placeId)
      .executeTakeFirst();
    await trx
      .updateTable("places")
      .set({ name: input.name, latitude: input.latitude, longitude: input.longitude, radius_m: input.radiusM, updated_at: nowIso(now) })
      .where("id", "=", placeId)
      .execute();
    const moved =
      before &&
      (Number(before.latitude) !== input.latitude || Number(before.longitude) !== input.longitude || before.radius_m !== input.radiusM);
    if (moved) await trx.deleteFrom("place_presence").where("place_id", "=", placeId).execute();
  });
}

export async function deletePlace(db: DB, placeId: string): Promise<void> {
  await db.deleteFrom("places").where("id", "=", placeId).execute();
}

/** The kid's newest location (any phone), or undefined. */
export function lastKidLocation(db: DB, profileId: string) {
  return db
    .selectFrom("device_locations")
    .innerJoin("devices", "devices.id", "device_locations.device_id")
    .select(["device_locations.latitude", "device_locations.longitude", "device_locations.device_time"])
    .where("devices.profile_id", "=", profileId)
    .orderBy("device_locations.device_time", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** At most this many points of one day are listed and drawn (one every 30 s for the whole day is 2,880: the daily cap). */
export const TRAIL_MAX_POINTS = 2_880;

export interface TrailPoint {
  latitude: number;
  longitude: number;
  at: string;
  accuracyM: number | null;
}

/** The kid's locations in [from, to) (the phones' times), oldest first. */
export async function kidTrail(db: DB, profileId: string, from: string, to: string): Promise<TrailPoint[]> {
  const rows = await db
    .selectFrom("device_locations")
    .innerJoin("devices", "devices.id", "device_locations.device_id")
    .select(["device_locations.latitude", "device_locations.longitude", "device_locations.device_time", "device_locations.accuracy_m"])
    .where("devices.profile_id", "=", profileId)
    .where("device_locations.device_time", ">=", from)
    .where("device_locations.device_time", "<", to)
    .orderBy("device_locations.device_time")
    .orderBy("device_locations.id")
    .limit(TRAIL_MAX_POINTS)
    .execute();
  return rows.map((r) => ({
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
    at: r.device_time,
    accuracyM: r.accuracy_m === null ? null : Number(r.accuracy_m),
  }));
}

/** The kid's arrivals and departures in [from, to), oldest first. */
export function kidPlaceEvents(db: DB, profileId: string, from: string, to: string) {
  return db
    .selectFrom("place_events")
    .select(["id", "kind", "place_name", "at"])
    .where("profile_id", "=", profileId)
    .where("at", ">=", from)
    .where("at", "<", to)
    .orderBy("at")
    .orderBy("id")
    .limit(500)
    .execute();
}

/**
 * Removes locations and place events older than TRAIL_RETENTION_DAYS (the housekeeping job). A phone's newest
 * location stays however old (the dashboard's "last location" of a phone that has been off for a month).
 */
export async function pruneTrail(db: DB, now: Date = new Date()): Promise<{ locations: number; placeEvents: number }> {
  const cutoff = nowIso(new Date(now.getTime() - TRAIL_RETENTION_DAYS * 86_400_000));
  const locations = await db
    .deleteFrom("device_locations")
    .where("device_time", "<", cutoff)
    .where("device_time", "<", (eb) =>
      eb
        .selectFrom("device_locations as newest")
        .select((e) => e.fn.max("newest.device_time").as("t"))
        .whereRef("newest.device_id", "=", "device_locations.device_id"),
    )
    .executeTakeFirst();
  const placeEvents = await db.deleteFrom("place_events").where("at", "<", cutoff).executeTakeFirst();
  return { locations: Number(locations.numDeletedRows), placeEvents: Number(placeEvents.numDeletedRows) };
}
