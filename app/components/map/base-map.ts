/**
 * The base map's pieces both sides share: the SVG drawn on the server around the pin (seen without JavaScript, and
 * while Leaflet loads), and the address of the outlines Leaflet draws under its tiles.
 */

/** The data's version (Natural Earth 1:50m from `world-atlas`): part of the address, so an upgrade is a new one. */
export const OUTLINES_VERSION = "50m-2.0.2";

/** Where Leaflet gets the outlines around a point: its whole-degree cell (resources.map-outlines). */
export function outlinesHref(lat: number, long: number): string {
  const cell = (v: number, min: number, max: number) => Math.max(min, Math.min(max, Math.floor(v)));
  return `/resources/map-outlines?lat=${cell(lat, -90, 89)}&long=${cell(long, -180, 179)}&v=${OUTLINES_VERSION}`;
}

/** The base map's colours: sea, land, borders and coasts (the same on the page and under Leaflet's tiles). */
export const BASE_MAP_COLOURS = { sea: "#cfe3f1", land: "#f5f2ea", line: "#6b7280" } as const;

/** The key of the SVG's markup in a document's render (app/utils/document-markup.ts). */
export const BASE_MAP_KEY = "map:base";

const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

/**
 * The SVG markup: sea and land (even-odd, so lakes and enclaves stay open), the point in the middle. It covers its
 * box (`slice`), so whatever the box's shape the point stays in the box's middle, where the page draws the pin
 * (.map-pin: the same size at any scale).
 */
export function baseMapSvg(map: { width: number; height: number; land: string }, label: string): string {
  const { sea, land, line } = BASE_MAP_COLOURS;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${map.width} ${map.height}" preserveAspectRatio="xMidYMid slice" role="img" aria-label="${escape(label)}">` +
    `<rect width="${map.width}" height="${map.height}" fill="${sea}"/>` +
    `<path d="${map.land}" fill="${land}" fill-rule="evenodd" stroke="${line}" stroke-width="1" stroke-linejoin="round"/>` +
    `</svg>`
  );
}
