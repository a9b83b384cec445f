import type { LoaderFunctionArgs } from "@remix-run/node";
import { outlinesGeoJson } from "~/components/map/outlines.server";
import { requireParent } from "~/utils/auth.server";

function cell(v: string | null, min: number, max: number): number | null {
  if (v === null || !/^-?\d{1,3}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}

/**
 * `/resources/map-outlines?lat=51&long=-1&v=…`: country borders and coasts around a whole-degree cell as GeoJSON,
 * for the layer Leaflet draws under its tiles (the map page, when tiles cannot load). Shipped with the product
 * (no CDN); the same cell always answers the same, so the browser keeps it for a year.
 */
export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  const url = new URL(args.request.url);
  const lat = cell(url.searchParams.get("lat"), -90, 89);
  const long = cell(url.searchParams.get("long"), -180, 179);
  if (lat === null || long === null) throw new Response("A whole-degree latitude and longitude are needed.", { status: 400 });
  return new Response(JSON.stringify(outlinesGeoJson(lat, long)), {
    headers: {
      "Content-Type": "application/geo+json; charset=utf-8",
      "Cache-Control": "private, max-age=31536000, immutable",
    },
  });
}
