import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import leafletStyles from "../../node_modules/leaflet/dist/leaflet.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { formatDateTime } from "#core/format";
import { requireKidAccess, requireParent } from "~/utils/auth.server";
import { externalMapUrl, mapBbox, MAP_ZOOM } from "~/rules/location";
import { BASE_MAP_COLOURS, BASE_MAP_KEY, baseMapSvg, outlinesHref } from "~/components/map/base-map";
import { baseMapAround } from "~/components/map/outlines.server";
import { documentOnly } from "~/utils/document-markup.server";
import { useDocumentMarkup } from "~/utils/document-markup";
import { placesAction, placesData } from "~/components/map/places.server";
import { PlacesSection, TrailSection, type PlaceFormResult, type PlacesData } from "~/components/map/places";

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

/**
 * `/map?lat&long&zoom&bbox&at&profileId&embed&day&edit`: the local map page (framed by the dashboard with `embed`, or
 * opened on its own). With `profileId` the map is named after the kid, and (not framed) shows the kid's places and
 * the day's trail (`day`, the family's calendar day; `edit`, the place being edited).
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const access = profileId ? await requireKidAccess(args, profileId) : null;
  if (!access) await requireParent(args);
  const kidName = access?.kid.name ?? null;
  const embed = url.searchParams.get("embed") === "1";
  const lat = num(url.searchParams.get("lat"), -90, 90);
  const long = num(url.searchParams.get("long"), -180, 180);
  if (lat === null || long === null) throw new Response("A latitude and a longitude are needed.", { status: 400 });
  const zoom = Math.round(num(url.searchParams.get("zoom"), 1, 19) ?? MAP_ZOOM);
  const given = (url.searchParams.get("bbox") ?? "").split(",").map(Number);
  const bbox = given.length === 4 && given.every(Number.isFinite) ? (given as [number, number, number, number]) : mapBbox(lat, long);
  const at = url.searchParams.get("at");
  const reportedAt = at && Number.isFinite(Date.parse(at)) ? formatDateTime(new Date(Date.parse(at)).toISOString()) : null;
  const place = `${lat.toFixed(5)}, ${long.toFixed(5)}`;
  const base = baseMapAround(lat, long);
  const title = kidName ? `Map of ${kidName}'s last location` : `Map of ${place}`;
  const label = `${title}: country borders and coasts${base.country ? ` around ${base.country}` : ""}, the pin at ${place}`;
  return json({
    lat,
    long,
    zoom,
    bbox,
    place,
    title,
    country: base.country,
    outlineZoom: base.zoom,
    embed,
    external: externalMapUrl(lat, long),
    reportedAt,
    // The drawn base map's markup goes once in a document (its HTML), in the data only on a client-side visit.
    baseSvg: documentOnly(args.context, BASE_MAP_KEY, baseMapSvg(base, label)),
    places: access && !embed ? await placesData(args.context, url, access.parent.id, access.kid) : null,
  });
}

/** The Places section's forms (add, edit, delete a place) for the kid the URL names. */
export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, kid } = await requireKidAccess(args, url.searchParams.get("profileId"));
  return placesAction(args, await args.request.formData(), parent.id, kid);
}

type MapState = "loading" | "drawn" | "no-tiles";

/** The base map's markup: the loader's, the render's (document request), or what the hydrated document shows. */
function useBaseSvg(fromData: string | null): string {
  const fromRender = useDocumentMarkup<string>(BASE_MAP_KEY);
  if (fromData) return fromData;
  if (typeof document === "undefined") return fromRender ?? "";
  return document.getElementById("base-map")?.innerHTML ?? "";
}

/**
 * The map: under everything the base map drawn on the server (country borders and coasts from `world-atlas` around
 * the pin), seen without JavaScript and while Leaflet loads; with JavaScript Leaflet's OpenStreetMap tiles over the
 * same outlines (resources.map-outlines), which show, zoomed out to where they mean something, when no tile loads.
 */
export default function MapPage() {
  const { lat, long, zoom, bbox, place, title, country, outlineZoom, embed, external, reportedAt, baseSvg, places } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as PlaceFormResult | undefined;
  const { search } = useLocation();
  const svg = useBaseSvg(baseSvg);
  const ref = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<MapState>("loading");
  const [leaflet, setLeaflet] = useState<Leaflet | null>(null);
  const [picked, setPicked] = useState<{ latitude: number; longitude: number; n: number } | null>(null);
  const pickable = places !== null;
  useEffect(() => {
    let map: import("leaflet").Map | undefined;
    let drawn: Leaflet | undefined;
    let cancelled = false;
    let resized: ResizeObserver | undefined;
    void import("leaflet").then((mod) => {
      const L = (mod as unknown as { default?: typeof import("leaflet") }).default ?? mod;
      if (cancelled || !ref.current) return;
      const m = L.map(ref.current, { zoomControl: true, attributionControl: true }).setView([lat, long], zoom);
      map = m;
      // The stage's height changes when the note under it appears: Leaflet keeps the pin in the middle.
      resized = new ResizeObserver(() => m.invalidateSize());
      resized.observe(ref.current);
      // The outlines in a pane under the tiles' (z-index 200): a loaded tile covers them, a missing one shows them.
      m.createPane("outlines").style.zIndex = "150";
      void fetch(outlinesHref(lat, long))
        .then((res) => (res.ok ? res.json() : null))
        .then((data: GeoJSON.FeatureCollection | null) => {
          if (!data || cancelled) return;
          const { land, line } = BASE_MAP_COLOURS;
          L.geoJSON(data, {
            pane: "outlines",
            interactive: false,
            style: { color: line, weight: 1, fillColor: land, fillOpacity: 1 },
          }).addTo(m);
        })
        .catch(() => undefined);
      let loaded = 0;
      let zoomedOut = false;
      const noTiles = () => {
        setState("no-tiles");
        // Borders and coasts mean little at street level: show them where they tell where the pin is.
        if (!zoomedOut && m.getZoom() > outlineZoom) m.setZoom(outlineZoom, { animate: false });
        zoomedOut = true;
      };
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
      tiles.on("load", () => (loaded > 0 ? setState("drawn") : noTiles()));
      tiles.on("tileerror", () => {
        if (loaded === 0) noTiles();
      });
      tiles.addTo(m);
      const [w, s, e, n] = bbox;
      L.rectangle(
        [
          [s, w],
          [n, e],
        ],
        { color: "#0f766e", weight: 1, fillOpacity: 0.08 },
      ).addTo(m);
      L.circleMarker([lat, long], { radius: 9, color: "#fff", weight: 3, fillColor: "#0f766e", fillOpacity: 1 }).addTo(m);
      // A click on the map sets the Places form's centre.
      if (pickable) m.on("click", (e) => setPicked((p) => ({ latitude: e.latlng.lat, longitude: e.latlng.lng, n: (p?.n ?? 0) + 1 })));
      drawn = { L, map: m, alive: true };
      setLeaflet(drawn);
    });
    return () => {
      cancelled = true;
      resized?.disconnect();
      // The layers' effect may still hold this map for a render: it draws nothing on a removed one.
      if (drawn) drawn.alive = false;
      setLeaflet(null);
      map?.remove();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the box by value: a revalidation's new array is the same box
  }, [lat, long, zoom, bbox.join(","), outlineZoom, pickable]);
  useMapLayers(leaflet, places, picked);
  return (
    <main className={`map-page${embed ? " map-embed" : ""}${places ? " map-with-places" : ""}`}>
      <h1 className="sr-only">{title}</h1>
      <div className="map-stage">
        <div id="base-map" className="map-base" data-testid="base-map" dangerouslySetInnerHTML={{ __html: svg }} />
        <span className="map-pin" data-testid="base-map-pin" aria-hidden="true" />
        {/* A named region, not role=img: Leaflet puts focusable zoom buttons and links inside. */}
        <div ref={ref} className="map-canvas" role="region" aria-label={`${title}, centred on ${place}`} data-state={state} />
      </div>
      <div className="map-text" data-testid="map-text">
        {embed ? null : (
          <>
            <p>
              Location: <strong>{place}</strong>
              {country ? ` · ${country}` : null}
            </p>
            {reportedAt ? <p>{`Reported ${reportedAt}`}</p> : null}
            <p>
              <a href={external} target="_blank" rel="noreferrer">
                View on OpenStreetMap
              </a>
            </p>
          </>
        )}
        <noscript>
          <p className="muted small" data-testid="map-why">
            JavaScript is off in this browser: the map shows country borders and coasts.
          </p>
        </noscript>
        {state === "no-tiles" ? (
          <p className="muted small" data-testid="map-why">
            The map tiles could not be loaded from OpenStreetMap: the map shows country borders and coasts.
          </p>
        ) : null}
      </div>
      {places ? (
        <div className="map-sections">
          <PlacesSection data={places} search={search} result={actionData?.errors ? actionData : null} picked={picked} />
          <TrailSection data={places} search={search} />
        </div>
      ) : null}
    </main>
  );
}

const PLACE_COLOUR = "#7c3aed";
const TRAIL_COLOUR = "#b45309";

/** The places (circles, named), the day's trail (a line through its points) and the picked centre, over Leaflet's map. */
type Leaflet = { L: typeof import("leaflet"); map: import("leaflet").Map; alive: boolean };

function useMapLayers(leaflet: Leaflet | null, places: PlacesData | null, picked: { latitude: number; longitude: number } | null) {
  useEffect(() => {
    if (!leaflet?.alive || !places) return;
    const { L, map } = leaflet;
    const group = L.layerGroup().addTo(map);
    for (const p of places.places)
      L.circle([p.latitude, p.longitude], { radius: p.radiusM, color: PLACE_COLOUR, weight: 2, fillOpacity: 0.12, className: "map-place" })
        .bindTooltip(p.name, { permanent: false })
        .addTo(group);
    const line = places.trail.map((p) => [p.latitude, p.longitude] as [number, number]);
    if (line.length > 1)
      L.polyline(line, { color: TRAIL_COLOUR, weight: 3, opacity: 0.85, interactive: false, className: "map-trail" }).addTo(group);
    for (const p of places.trail)
      L.circleMarker([p.latitude, p.longitude], { radius: 3, color: TRAIL_COLOUR, weight: 1, fillOpacity: 1, interactive: false }).addTo(
        group,
      );
    if (picked)
      L.circleMarker([picked.latitude, picked.longitude], {
        radius: 6,
        color: PLACE_COLOUR,
        weight: 2,
        fillOpacity: 0.6,
        interactive: false,
      }).addTo(group);
    return () => void group.remove();
  }, [leaflet, places, picked]);
}
