/**
 * The base map drawn without tiles: Web Mercator (the projection of the tiles and of Leaflet) around one point,
 * rings clipped to the view, as SVG path data. Pure: the outlines come from the caller (outlines.server.ts).
 */

/** A ring of [longitude, latitude] points (GeoJSON order). */
export type Ring = [number, number][];
/** West, south, east, north in degrees. */
export type Bounds = [number, number, number, number];
export interface View {
  /** The map's zoom (as Leaflet's: the world is 256 × 2^zoom pixels wide). */
  zoom: number;
  width: number;
  height: number;
  /** The pixel of the world at the view's top-left corner. */
  left: number;
  top: number;
}

const TILE = 256;
/** Web Mercator's latitude limit (the tiles' square world). */
export const MAX_LATITUDE = 85.0511287798;

const clampLat = (lat: number) => Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat));

/** The world pixel of a point at a zoom. */
export function project(long: number, lat: number, zoom: number): [number, number] {
  const size = TILE * 2 ** zoom;
  const phi = (clampLat(lat) * Math.PI) / 180;
  return [((long + 180) / 360) * size, (0.5 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / (2 * Math.PI)) * size];
}

/** The point of a world pixel at a zoom. */
export function unproject(x: number, y: number, zoom: number): [number, number] {
  const size = TILE * 2 ** zoom;
  const long = (x / size) * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / size))) * 180) / Math.PI;
  return [long, lat];
}

/** A view of width × height pixels centred on the point. */
export function viewAround(lat: number, long: number, zoom: number, width: number, height: number): View {
  const [x, y] = project(long, lat, zoom);
  return { zoom, width, height, left: x - width / 2, top: y - height / 2 };
}

/** The view's bounds in degrees, widened by `margin` pixels on each side (latitudes within Mercator's square). */
export function viewBounds(view: View, margin = 0): Bounds {
  const [w, n] = unproject(view.left - margin, view.top - margin, view.zoom);
  const [e, s] = unproject(view.left + view.width + margin, view.top + view.height + margin, view.zoom);
  return [w, clampLat(s), e, clampLat(n)];
}

/** Whether two bounds overlap (edges touching count). */
export function overlaps(a: Bounds, b: Bounds): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

/** A ring's bounds. */
export function ringBounds(ring: Ring): Bounds {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring) {
    if (x < w) w = x;
    if (x > e) e = x;
    if (y < s) s = y;
    if (y > n) n = y;
  }
  return [w, s, e, n];
}

/**
 * Sutherland–Hodgman: the part of a closed polygon ring inside an axis-aligned rectangle (any x/y plane: degrees
 * or pixels). The result may run along the rectangle's edges; empty when nothing of the ring is inside.
 */
export function clipRing(ring: Ring, [minX, minY, maxX, maxY]: Bounds): Ring {
  type Edge = { inside: (p: [number, number]) => boolean; cut: (a: [number, number], b: [number, number]) => [number, number] };
  const atX =
    (x: number) =>
    (a: [number, number], b: [number, number]): [number, number] => [x, a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0])];
  const atY =
    (y: number) =>
    (a: [number, number], b: [number, number]): [number, number] => [a[0] + ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]), y];
  const edges: Edge[] = [
    { inside: (p) => p[0] >= minX, cut: atX(minX) },
    { inside: (p) => p[0] <= maxX, cut: atX(maxX) },
    { inside: (p) => p[1] >= minY, cut: atY(minY) },
    { inside: (p) => p[1] <= maxY, cut: atY(maxY) },
  ];
  let out: Ring =
    ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? ring.slice(0, -1) : ring;
  for (const edge of edges) {
    if (!out.length) break;
    const input = out;
    out = [];
    let prev = input[input.length - 1];
    for (const p of input) {
      if (edge.inside(p)) {
        if (!edge.inside(prev)) out.push(edge.cut(prev, p));
        out.push(p);
      } else if (edge.inside(prev)) out.push(edge.cut(prev, p));
      prev = p;
    }
  }
  return out.length >= 3 ? out : [];
}

/** Whether a point is inside a ring (even-odd ray casting; degrees). */
export function insideRing([x, y]: [number, number], ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/**
 * The rings (degrees) as SVG path data in the view's pixels: each projected, clipped to the view widened by
 * `margin` pixels (so no clip edge shows), points closer than half a pixel to the last one dropped, one decimal.
 * A view across the antimeridian also draws the rings shifted by 360°.
 */
export function ringsPath(rings: Ring[], view: View, margin = 8): string {
  const size = TILE * 2 ** view.zoom;
  const box: Bounds = [-margin, -margin, view.width + margin, view.height + margin];
  const parts: string[] = [];
  for (const shift of [-size, 0, size]) {
    if (view.left + view.width + margin < shift || view.left - margin > shift + size) continue;
    for (const ring of rings) {
      const pixels: Ring = ring.map(([long, lat]) => {
        const [x, y] = project(long, lat, view.zoom);
        return [x + shift - view.left, y - view.top];
      });
      const clipped = clipRing(pixels, box);
      if (!clipped.length) continue;
      let d = "";
      let last: [number, number] | null = null;
      for (const p of clipped) {
        if (last && Math.abs(p[0] - last[0]) < 0.5 && Math.abs(p[1] - last[1]) < 0.5) continue;
        d += `${last ? "L" : "M"}${p[0].toFixed(1)} ${p[1].toFixed(1)}`;
        last = p;
      }
      parts.push(`${d}Z`);
    }
  }
  return parts.join("");
}

/** Whether any ring has a point inside the view: a coast or a border to see. */
export function anyPointInView(rings: Ring[], view: View): boolean {
  const [w, s, e, n] = viewBounds(view);
  for (const ring of rings) {
    for (const [long, lat] of ring) {
      for (const l of [long - 360, long, long + 360]) if (l >= w && l <= e && lat >= s && lat <= n) return true;
    }
  }
  return false;
}
