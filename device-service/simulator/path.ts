/**
 * Where the simulated phone goes (issue 55 item 5): a path of points, given as "lat,lng;lat,lng;…" (--path) or as a
 * destination walked to in a straight line from where the phone is (--move-to), in steps of at most STEP_M metres,
 * so arrivals and departures can be watched locally (`npm run device:sim -- --help`).
 */
export interface Point {
  latitude: number;
  longitude: number;
}

/** The longest step of a --move-to walk (metres); the walk has at most MAX_STEPS steps. */
export const STEP_M = 100;
export const MAX_STEPS = 120;

/** "51.5,-0.14" → a point; throws a readable error when it is not one. */
export function parsePoint(text: string): Point {
  const parts = text.split(",").map((p) => p.trim());
  const [latitude, longitude] = parts.map((p) => (/^-?\d+(\.\d+)?$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 2 || !(latitude >= -90 && latitude <= 90) || !(longitude >= -180 && longitude <= 180))
    throw new Error(`"${text}" is not a point: write "<latitude>,<longitude>", latitude -90 to 90, longitude -180 to 180.`);
  return { latitude, longitude };
}

/** "lat,lng;lat,lng;…" → the points, in order. */
export function parsePath(text: string): Point[] {
  const points = text
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean)
    .map(parsePoint);
  if (points.length === 0) throw new Error('A path is at least one point: "<lat>,<lng>;<lat>,<lng>;…".');
  return points;
}

/** The points of a straight walk from `from` to `to` (not `from` itself, `to` last), each step at most STEP_M. */
export function walkTo(from: Point, to: Point): Point[] {
  const dLat = (to.latitude - from.latitude) * 111_195;
  const dLng = (to.longitude - from.longitude) * 111_195 * Math.cos((((from.latitude + to.latitude) / 2) * Math.PI) / 180);
  const steps = Math.min(MAX_STEPS, Math.max(1, Math.ceil(Math.hypot(dLat, dLng) / STEP_M)));
  return Array.from({ length: steps }, (_, i) => {
    const f = (i + 1) / steps;
    return {
      latitude: from.latitude + (to.latitude - from.latitude) * f,
      longitude: from.longitude + (to.longitude - from.longitude) * f,
    };
  });
}
