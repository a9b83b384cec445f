import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import leafletStyles from "../../node_modules/leaflet/dist/leaflet.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { formatDateTime } from "#core/format";
import { requireParent } from "~/utils/auth.server";
import { externalMapUrl, mapBbox, MAP_ZOOM } from "~/rules/location";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: leafletStyles },
  { rel: "stylesheet", href: dashboardStyles },
];
export const meta: MetaFunction = () => [{ title: "Map · Kids Portal" }];

function num(v: string | null, min: number, max: number): number | null {
  if (v === null || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) && n >= min && n <= max ? n : null;
}

/** `/map?lat&long&zoom&bbox&at`: the local map page (framed by the dashboard, or opened on its own). */
export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  const url = new URL(args.request.url);
  const lat = num(url.searchParams.get("lat"), -90, 90);
  const long = num(url.searchParams.get("long"), -180, 180);
  if (lat === null || long === null) throw new Response("A latitude and a longitude are needed.", { status: 400 });
  const zoom = Math.round(num(url.searchParams.get("zoom"), 1, 19) ?? MAP_ZOOM);
  const given = (url.searchParams.get("bbox") ?? "").split(",").map(Number);
  const bbox = given.length === 4 && given.every(Number.isFinite) ? (given as [number, number, number, number]) : mapBbox(lat, long);
  const at = url.searchParams.get("at");
  const reportedAt = at && Number.isFinite(Date.parse(at)) ? formatDateTime(new Date(Date.parse(at)).toISOString()) : null;
  return json({ lat, long, zoom, bbox, external: externalMapUrl(lat, long), reportedAt });
}

type MapState = "loading" | "drawn" | "no-tiles";

/**
 * The place as text (coordinates, time, OpenStreetMap link) stays on the page; the drawn map covers it only once
 * its tiles load. Without JavaScript, or when no tile can be fetched, the text says why no map is drawn.
 */
export default function MapPage() {
  const { lat, long, zoom, bbox, external, reportedAt } = useLoaderData<typeof loader>();
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<MapState>("loading");
  useEffect(() => {
    let map: import("leaflet").Map | undefined;
    let cancelled = false;
    void import("leaflet").then((mod) => {
      const L = (mod as unknown as { default?: typeof import("leaflet") }).default ?? mod;
      if (cancelled || !ref.current) return;
      map = L.map(ref.current, { zoomControl: true, attributionControl: true }).setView([lat, long], zoom);
      let loaded = 0;
      const tiles = L.tileLayer("https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png", {
        subdomains: ["a", "b", "c"],
        maxZoom: 19,
        attribution:
          '&copy; <a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noreferrer">OpenStreetMap</a> contributors',
      });
      tiles.on("tileload", () => {
        loaded += 1;
        setState("drawn");
      });
      tiles.on("load", () => setState(loaded > 0 ? "drawn" : "no-tiles"));
      tiles.on("tileerror", () => {
        if (loaded === 0) setState("no-tiles");
      });
      tiles.addTo(map);
      const [w, s, e, n] = bbox;
      L.rectangle(
        [
          [s, w],
          [n, e],
        ],
        { color: "#0f766e", weight: 1, fillOpacity: 0.08 },
      ).addTo(map);
      L.circleMarker([lat, long], { radius: 9, color: "#fff", weight: 3, fillColor: "#0f766e", fillOpacity: 1 }).addTo(map);
    });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [lat, long, zoom, bbox]);
  const place = `${lat.toFixed(5)}, ${long.toFixed(5)}`;
  return (
    <main className="map-page">
      <h1 className="sr-only">Map</h1>
      <div className="map-stage">
        <div className="map-text" data-testid="map-text">
          <p>
            Location: <strong>{place}</strong>
          </p>
          {reportedAt ? <p>{`Reported ${reportedAt}`}</p> : null}
          <p>
            <a href={external} target="_blank" rel="noreferrer">
              View on OpenStreetMap
            </a>
          </p>
          <p className="muted small" data-testid="map-why">
            <noscript>No map is drawn because JavaScript is off in this browser.</noscript>
            {state === "no-tiles" ? "No map is drawn because the map tiles could not be loaded from OpenStreetMap." : null}
          </p>
        </div>
        {/* A named region, not role=img: Leaflet puts focusable zoom buttons and links inside. */}
        <div
          ref={ref}
          className="map-canvas"
          role="region"
          aria-label={`Map centred on ${place}`}
          data-state={state}
          hidden={state === "no-tiles"}
        />
      </div>
    </main>
  );
}
