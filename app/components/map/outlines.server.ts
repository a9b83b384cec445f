import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { getOrCreateLru } from "#core/bounded";
import {
  anyPointInView,
  clipRing,
  insideRing,
  overlaps,
  ringBounds,
  ringsPath,
  viewAround,
  viewBounds,
  type Bounds,
  type Ring,
} from "~/rules/map-projection";

/**
 * The base map shipped with the product: country borders and coasts of Natural Earth 1:50m (the `world-atlas`
 * package), read on first use and kept. Drawn where map tiles cannot load: as an SVG around the pin (the page
 * without JavaScript) and as GeoJSON under Leaflet's tiles (resources.map-outlines).
 */
interface Polygon {
  country: string;
  bounds: Bounds;
  /** The outer ring first, then its holes (lakes, enclaves). */
  rings: Ring[];
}

let world: Polygon[] | null = null;

function polygons(): Polygon[] {
  if (world) return world;
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve("world-atlas/countries-50m.json"), "utf8")) as Topology<{
    countries: GeometryCollection<{ name: string }>;
  }>;
  const out: Polygon[] = [];
  for (const f of feature(topo, topo.objects.countries).features) {
    const g = f.geometry;
    if (!g || (g.type !== "Polygon" && g.type !== "MultiPolygon")) continue;
    const list = (g.type === "Polygon" ? [g.coordinates] : g.coordinates) as Ring[][];
    for (const rings of list) out.push({ country: f.properties?.name ?? "", bounds: ringBounds(rings[0]), rings });
  }
  world = out;
  return out;
}

/** The polygons that reach into the bounds (a bounds past ±180° finds those beyond the antimeridian too). */
function polygonsIn(bounds: Bounds): Polygon[] {
  const [w, s, e, n] = bounds;
  return polygons().filter((p) => [-360, 0, 360].some((shift) => overlaps([w - shift, s, e - shift, n], p.bounds)));
}

/** The country the point is in, if any (a point at sea has none). */
export function countryAt(lat: number, long: number): string | null {
  const hit = polygonsIn([long, lat, long, lat]).find(
    (p) => insideRing([long, lat], p.rings[0]) && !p.rings.slice(1).some((h) => insideRing([long, lat], h)),
  );
  return hit?.country || null;
}

/** The widest and the closest zoom of the drawn base map: country borders and coasts mean little closer than 7. */
export const BASE_MAP_ZOOMS = { closest: 7, widest: 3 } as const;
/** The SVG's size in pixels (the page scales it to fit, keeping the pin in the middle). */
export const BASE_MAP_SIZE = { width: 960, height: 640 } as const;

export interface BaseMap {
  zoom: number;
  width: number;
  height: number;
  /** The land: every polygon's rings as SVG path data (even-odd fill), clipped to the view. */
  land: string;
  country: string | null;
}

const cache = new Map<string, BaseMap>();

/**
 * The base map around a point: the closest zoom (7 down to 3) at which a coast or a border shows in the view,
 * so a point deep inside a large country still shows where it is.
 */
export function baseMapAround(lat: number, long: number): BaseMap {
  const key = `${lat.toFixed(4)},${long.toFixed(4)}`;
  return getOrCreateLru(cache, key, () => draw(lat, long), 100);
}

function draw(lat: number, long: number): BaseMap {
  const { width, height } = BASE_MAP_SIZE;
  let zoom: number = BASE_MAP_ZOOMS.closest;
  let view = viewAround(lat, long, zoom, width, height);
  let rings = polygonsIn(viewBounds(view, 8)).flatMap((p) => p.rings);
  while (zoom > BASE_MAP_ZOOMS.widest && !anyPointInView(rings, view)) {
    zoom -= 1;
    view = viewAround(lat, long, zoom, width, height);
    rings = polygonsIn(viewBounds(view, 8)).flatMap((p) => p.rings);
  }
  return { zoom, width, height, land: ringsPath(rings, view), country: countryAt(lat, long) };
}

/** Half the width and height, in degrees, of the outlines served around a point for Leaflet (resources.map-outlines). */
export const OUTLINE_WINDOW = { long: 16, lat: 10 } as const;

/**
 * The outlines around a whole-degree cell as a GeoJSON FeatureCollection (one MultiPolygon per country), clipped
 * to the window, points closer than 0.01° dropped, coordinates to 3 decimals: a few tens of kilobytes.
 */
export function outlinesGeoJson(latCell: number, longCell: number) {
  const bounds: Bounds = [
    longCell - OUTLINE_WINDOW.long,
    Math.max(-85.06, latCell - OUTLINE_WINDOW.lat),
    longCell + 1 + OUTLINE_WINDOW.long,
    Math.min(85.06, latCell + 1 + OUTLINE_WINDOW.lat),
  ];
  const byCountry = new Map<string, Ring[][]>();
  for (const shift of [-360, 0, 360]) {
    const shifted: Bounds = [bounds[0] - shift, bounds[1], bounds[2] - shift, bounds[3]];
    for (const p of polygons()) {
      if (!overlaps(shifted, p.bounds)) continue;
      const rings = p.rings
        .map((r) => thin(clipRing(r, shifted).map(([x, y]): [number, number] => [round3(x + shift), round3(y)])))
        .filter((r) => r.length >= 4);
      if (!rings.length) continue;
      const list = byCountry.get(p.country) ?? [];
      list.push(rings);
      byCountry.set(p.country, list);
    }
  }
  return {
    type: "FeatureCollection" as const,
    features: [...byCountry.entries()].map(([name, polys]) => ({
      type: "Feature" as const,
      properties: { name },
      geometry: { type: "MultiPolygon" as const, coordinates: polys },
    })),
  };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Drops points within 0.01° of the last kept one, then closes the ring (GeoJSON rings repeat their first point). */
function thin(ring: Ring): Ring {
  const out: Ring = [];
  for (const p of ring) {
    const last = out[out.length - 1];
    if (last && Math.abs(p[0] - last[0]) < 0.01 && Math.abs(p[1] - last[1]) < 0.01) continue;
    out.push(p);
  }
  if (out.length) out.push(out[0]);
  return out;
}
