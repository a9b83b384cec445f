import { roundUpToStep, TIME_STEP } from "./minutes";

/** The kid's location: the tracking interval, the local map page and the external map link. */

export const MAP_BBOX_MARGIN = 0.001;
export const MAP_ZOOM = 12;
export const MAP_EXTERNAL_ZOOM = 13;

/** Location tracking: off sets the interval to 0; on with no interval uses the default 15. */
export function trackingInterval(enabled: boolean, interval: unknown): number {
  if (!enabled) return 0;
  const n = roundUpToStep(interval);
  return n === 0 ? TIME_STEP : n;
}

// ---------------------------------------------------------------- map

export function mapBbox(lat: number, long: number, margin = MAP_BBOX_MARGIN): [number, number, number, number] {
  const r = (n: number) => Math.round(n * 1e6) / 1e6;
  return [r(long - margin), r(lat - margin), r(long + margin), r(lat + margin)];
}

export function externalMapUrl(lat: number, long: number, zoom = MAP_EXTERNAL_ZOOM): string {
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${long}#map=${zoom}/${lat}/${long}`;
}

/**
 * The local map page; `at` (the time the phone reported the place) is shown beside the coordinates, the kid
 * (`profileId`) names the map, and `embed` (the dashboard's frame, whose card shows the place as text) draws the map alone.
 */
export function localMapHref(lat: number, long: number, at?: string | null, opts: { profileId?: string; embed?: boolean } = {}): string {
  const params = new URLSearchParams({ lat: String(lat), long: String(long), zoom: String(MAP_ZOOM), bbox: mapBbox(lat, long).join(",") });
  if (at) params.set("at", at);
  if (opts.profileId) params.set("profileId", opts.profileId);
  if (opts.embed) params.set("embed", "1");
  return `/map?${params}`;
}
