/**
 * The geofence decision (issue 55 item 1): whether one location fix makes a phone arrive at or leave one place.
 * Pure: the ingest (device-service/places.ts) reads the phone's presence, asks `decideFence`, and stores what changed.
 *
 * Hysteresis: a phone is inside once a fix puts it within `radius − margin` of the centre, and outside once a fix puts
 * it beyond `radius + margin`; between the two nothing changes, so fixes jittering around the edge give no events.
 * The margin is the fix's accuracy, at least FENCE_MIN_MARGIN_M and FENCE_MARGIN_SHARE of the radius, and at most
 * half the radius (so the inner circle never vanishes). A fix less accurate than the radius says nothing about the
 * place and is ignored, as is a fix older than the last transition (a late resend cannot undo a newer one).
 *
 * A phone whose presence is unknown (no fix decided it yet) takes the fix's side without an event: a place added
 * around where the kid is now does not "arrive" them, and the next real crossing does.
 */

/** Place sizes a parent may choose (metres). */
export const PLACE_RADIUS_MIN_M = 50;
export const PLACE_RADIUS_MAX_M = 5_000;
/** A place's name: 1 to this many characters. */
export const PLACE_NAME_MAX = 40;
/** The smallest margin either side of the edge (metres), and the smallest as a share of the radius. */
export const FENCE_MIN_MARGIN_M = 25;
export const FENCE_MARGIN_SHARE = 0.2;

export type Presence = "inside" | "outside";

export interface LatLng {
  latitude: number;
  longitude: number;
}

export interface Fence extends LatLng {
  radiusM: number;
}

export interface Fix extends LatLng {
  /** The fix's accuracy in metres (68 % radius, as Android reports it); null or absent: unknown. */
  accuracyM?: number | null;
  /** ISO time of the fix (the phone's clock). */
  at: string;
}

export interface KnownPresence {
  state: Presence;
  /** ISO time of the fix that made it so. */
  since: string;
}

export type FenceDecision =
  | { change: false; reason: "inaccurate" | "stale" | "edge" | "same" }
  | { change: true; state: Presence; event: "arrive" | "leave" | null };

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine). */
export function distanceM(a: LatLng, b: LatLng): number {
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The band either side of the edge in which a fix changes nothing (metres). */
export function fenceMargin(radiusM: number, accuracyM?: number | null): number {
  const floor = Math.max(FENCE_MIN_MARGIN_M, FENCE_MARGIN_SHARE * radiusM, accuracyM ?? 0);
  return Math.min(floor, radiusM / 2);
}

/** What one fix does to one phone's presence at one place (`known`: its presence now, or null when unknown). */
export function decideFence(known: KnownPresence | null, fix: Fix, fence: Fence): FenceDecision {
  if (fix.accuracyM != null && fix.accuracyM > fence.radiusM) return { change: false, reason: "inaccurate" };
  if (known && Date.parse(fix.at) < Date.parse(known.since)) return { change: false, reason: "stale" };
  const d = distanceM(fix, fence);
  const margin = fenceMargin(fence.radiusM, fix.accuracyM);
  const side: Presence | null = d <= fence.radiusM - margin ? "inside" : d > fence.radiusM + margin ? "outside" : null;
  if (side === null) return { change: false, reason: "edge" };
  if (known?.state === side) return { change: false, reason: "same" };
  if (!known) return { change: true, state: side, event: null };
  return { change: true, state: side, event: side === "inside" ? "arrive" : "leave" };
}

/** Checks a place a parent typed: a message per bad field, or the clean values. */
export function checkPlace(input: {
  name: unknown;
  latitude: unknown;
  longitude: unknown;
  radiusM: unknown;
}):
  | { ok: true; value: { name: string; latitude: number; longitude: number; radiusM: number } }
  | { ok: false; errors: Partial<Record<"name" | "latitude" | "longitude" | "radiusM", string>> } {
  const errors: Partial<Record<"name" | "latitude" | "longitude" | "radiusM", string>> = {};
  const name = typeof input.name === "string" ? input.name.trim() : "";
  if (!name) errors.name = "Give the place a name.";
  else if ([...name].length > PLACE_NAME_MAX) errors.name = `A place's name is at most ${PLACE_NAME_MAX} characters.`;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  else if (/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(name)) errors.name = "A place's name cannot hold control characters.";
  const num = (v: unknown) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : typeof v === "number" ? v : NaN);
  const latitude = num(input.latitude);
  const longitude = num(input.longitude);
  const radiusM = num(input.radiusM);
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) errors.latitude = "The latitude is a number from -90 to 90.";
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) errors.longitude = "The longitude is a number from -180 to 180.";
  if (!Number.isInteger(radiusM) || radiusM < PLACE_RADIUS_MIN_M || radiusM > PLACE_RADIUS_MAX_M)
    errors.radiusM = `The radius is a whole number of metres from ${PLACE_RADIUS_MIN_M} to ${PLACE_RADIUS_MAX_M.toLocaleString("en")}.`;
  if (Object.keys(errors).length) return { ok: false, errors };
  return { ok: true, value: { name, latitude, longitude, radiusM } };
}
