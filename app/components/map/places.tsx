import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PLACE_NAME_MAX, PLACE_RADIUS_MAX_M, PLACE_RADIUS_MIN_M } from "#core/geofence";
import { SubmitButton } from "~/components/forms";
import { useHydrated, useIsSubmitting } from "~/utils/hooks";

/** One place as the map page shows it. */
export interface PlaceRow {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  radiusM: number;
  scope: "kid" | "family";
  where: string;
  /** When the kid arrived (family time, with the day when not today), or null when the kid is not there. */
  insideLabel: string | null;
}

export interface PlacesData {
  kidId: string;
  kidName: string;
  timeZone: string;
  /** How many days locations are kept (the day picker's reach). */
  keptDays: number;
  canFamily: boolean;
  places: PlaceRow[];
  editing: Omit<PlaceRow, "where" | "insideLabel"> | null;
  editMissing: boolean;
  lastLocation: { latitude: number; longitude: number; at: string } | null;
  day: string;
  today: string;
  earliest: string;
  dayError: string | null;
  previousDay: string | null;
  nextDay: string | null;
  trail: { latitude: number; longitude: number; where: string; time: string; accuracyM: number | null }[];
  events: { id: string; kind: "arrive" | "leave"; placeName: string; time: string }[];
}

type Field = "name" | "latitude" | "longitude" | "radiusM" | "centre" | "scope" | "form";
export interface PlaceFormResult {
  intent: unknown;
  errors: Partial<Record<Field, string>>;
  values: { name: string; latitude: string; longitude: string; radiusM: string; centre: "coordinates" | "last"; scope: "kid" | "family" };
}

/** The default size of a new place (metres). */
export const DEFAULT_RADIUS_M = 200;

/** `search` with some parameters changed (null removes one): the page's own links keep the rest of its state. */
export function withParams(search: string, changes: Record<string, string | null>): string {
  const q = new URLSearchParams(search);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) q.delete(k);
    else q.set(k, v);
  }
  return `?${q.toString()}`;
}

/**
 * Places: the list (who is there, edit, delete) and the form that adds or edits one. Without JavaScript the centre is
 * typed or taken from the phone's last location; with it a click on the map fills the latitude and longitude
 * (`picked`, from the map page).
 */
export function PlacesSection({
  data,
  search,
  result,
  picked,
}: {
  data: PlacesData;
  search: string;
  result: PlaceFormResult | null;
  picked: { latitude: number; longitude: number; n: number } | null;
}) {
  const hydrated = useHydrated();
  const { kidName, places, editing } = data;
  const errors = result?.errors ?? {};
  const initial = result?.values ?? {
    name: editing?.name ?? "",
    latitude: editing ? String(editing.latitude) : "",
    longitude: editing ? String(editing.longitude) : "",
    radiusM: String(editing?.radiusM ?? DEFAULT_RADIUS_M),
    centre: "coordinates" as const,
    scope: editing?.scope ?? ("kid" as const),
  };
  const [lat, setLat] = useState(initial.latitude);
  const [lng, setLng] = useState(initial.longitude);
  const [centre, setCentre] = useState(initial.centre);
  const [seen, setSeen] = useState(initial);
  if (seen.latitude !== initial.latitude || seen.longitude !== initial.longitude || seen.centre !== initial.centre) {
    setSeen(initial);
    setLat(initial.latitude);
    setLng(initial.longitude);
    setCentre(initial.centre);
  }
  useEffect(() => {
    if (!picked) return;
    setLat(picked.latitude.toFixed(6));
    setLng(picked.longitude.toFixed(6));
    setCentre("coordinates");
  }, [picked]);
  const busyAdd = useIsSubmitting({ intent: editing ? "edit-place" : "add-place" });
  const busyDelete = useIsSubmitting({ intent: "delete-place" });
  const described = (f: Field) => (errors[f] ? `place-${f}-error` : undefined);
  const error = (f: Field) =>
    errors[f] ? (
      <p className="field-error" id={`place-${f}-error`} role="alert">
        {errors[f]}
      </p>
    ) : null;
  const formTitle = editing ? `Edit ${editing.name}` : "Add a place";
  return (
    <section className="map-section" aria-labelledby="places-title">
      <h2 id="places-title">Places</h2>
      <p className="muted small">
        {kidName}&apos;s arrivals and departures are noticed from the phone&apos;s location reports, for {kidName}&apos;s own places and the
        family&apos;s.
      </p>
      {places.length === 0 ? (
        <p data-testid="places-empty">No places yet: add Home, School or another place below.</p>
      ) : (
        <ul className="place-list" data-testid="places">
          {places.map((p) => (
            <li key={p.id} className="place-row" data-testid={`place-${p.name}`}>
              <div>
                <strong>{p.name}</strong>{" "}
                <span className="muted small">
                  {p.scope === "family" ? "Family place" : `${kidName}'s place`} · {p.radiusM.toLocaleString("en")} m around {p.where}
                </span>
                <p className="small place-status">
                  {p.insideLabel ? `${kidName} is here (arrived ${p.insideLabel}).` : `${kidName} is not here.`}
                </p>
              </div>
              {p.scope === "family" && !data.canFamily ? (
                <span className="muted small">Only the family&apos;s owner can change it.</span>
              ) : (
                <div className="place-actions">
                  <Link className="btn btn-outline" to={withParams(search, { edit: p.id })} aria-label={`Edit ${p.name}`}>
                    Edit
                  </Link>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="delete-place" />
                    <input type="hidden" name="placeId" value={p.id} />
                    <SubmitButton busy={busyDelete} className="btn btn-danger-outline" aria-label={`Delete ${p.name}`}>
                      Delete
                    </SubmitButton>
                  </Form>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {data.editMissing ? <p className="field-error">That place is not one of {kidName}&apos;s: add a new one instead.</p> : null}
      <Form method="post" preventScrollReset className="place-form" aria-labelledby="place-form-title" noValidate>
        <h3 id="place-form-title">{formTitle}</h3>
        <input type="hidden" name="intent" value={editing ? "edit-place" : "add-place"} />
        {editing ? <input type="hidden" name="placeId" value={editing.id} /> : null}
        {errors.form ? (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="place-name">Name</label>
          <input
            id="place-name"
            name="name"
            defaultValue={initial.name}
            key={`name-${initial.name}`}
            maxLength={PLACE_NAME_MAX}
            required
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={described("name")}
          />
          {error("name")}
        </div>
        <div className="field">
          <label htmlFor="place-radius">
            Radius in metres ({PLACE_RADIUS_MIN_M} to {PLACE_RADIUS_MAX_M.toLocaleString("en")})
          </label>
          <input
            id="place-radius"
            name="radiusM"
            type="number"
            inputMode="numeric"
            min={PLACE_RADIUS_MIN_M}
            max={PLACE_RADIUS_MAX_M}
            step={1}
            defaultValue={initial.radiusM}
            key={`radius-${initial.radiusM}`}
            required
            aria-invalid={errors.radiusM ? true : undefined}
            aria-describedby={described("radiusM")}
          />
          {error("radiusM")}
        </div>
        <fieldset className="field" aria-describedby={described("centre")}>
          <legend>Centre</legend>
          <label className="choice">
            <input
              type="radio"
              name="centre"
              value="coordinates"
              checked={centre === "coordinates"}
              onChange={() => setCentre("coordinates")}
            />{" "}
            These coordinates
          </label>
          <div className="place-coords">
            <div className="field">
              <label htmlFor="place-latitude">Latitude</label>
              <input
                id="place-latitude"
                name="latitude"
                inputMode="decimal"
                value={lat}
                onChange={(e) => {
                  setLat(e.target.value);
                  setCentre("coordinates");
                }}
                aria-invalid={errors.latitude ? true : undefined}
                aria-describedby={described("latitude")}
              />
              {error("latitude")}
            </div>
            <div className="field">
              <label htmlFor="place-longitude">Longitude</label>
              <input
                id="place-longitude"
                name="longitude"
                inputMode="decimal"
                value={lng}
                onChange={(e) => {
                  setLng(e.target.value);
                  setCentre("coordinates");
                }}
                aria-invalid={errors.longitude ? true : undefined}
                aria-describedby={described("longitude")}
              />
              {error("longitude")}
            </div>
          </div>
          {hydrated ? <p className="muted small">Or click the map to set them.</p> : null}
          <label className="choice">
            <input type="radio" name="centre" value="last" checked={centre === "last"} onChange={() => setCentre("last")} /> The
            phone&apos;s last location
            {data.lastLocation
              ? ` (${data.lastLocation.latitude.toFixed(5)}, ${data.lastLocation.longitude.toFixed(5)}, ${data.lastLocation.at})`
              : " (none reported yet)"}
          </label>
          {error("centre")}
        </fieldset>
        {editing ? null : (
          <fieldset className="field" aria-describedby={described("scope")}>
            <legend>For</legend>
            <label className="choice">
              <input type="radio" name="scope" value="kid" defaultChecked={initial.scope === "kid"} /> Only {kidName}
            </label>
            <label className="choice">
              <input type="radio" name="scope" value="family" defaultChecked={initial.scope === "family"} disabled={!data.canFamily} /> The
              whole family
              {data.canFamily ? null : " (only the family's owner can add one)"}
            </label>
            {error("scope")}
          </fieldset>
        )}
        <div className="place-actions">
          <SubmitButton busy={busyAdd}>{editing ? "Save place" : "Add place"}</SubmitButton>
          {editing ? (
            <Link className="btn btn-outline" to={withParams(search, { edit: null })}>
              Cancel
            </Link>
          ) : null}
        </div>
      </Form>
    </section>
  );
}

/** The day's trail: the points in order with their times, the arrivals and departures, and the day picker. */
export function TrailSection({ data, search }: { data: PlacesData; search: string }) {
  const { kidName, trail, events, day, today } = data;
  const hidden = [...new URLSearchParams(search)].filter(([k]) => k !== "day" && k !== "edit");
  return (
    <section className="map-section" aria-labelledby="trail-title">
      <h2 id="trail-title">{day === today ? "Today's trail" : `Trail of ${day}`}</h2>
      <Form method="get" className="trail-day" preventScrollReset>
        {hidden.map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <div className="field">
          <label htmlFor="trail-day">Day</label>
          <input
            id="trail-day"
            name="day"
            type="date"
            min={data.earliest}
            max={today}
            defaultValue={day}
            key={day}
            aria-invalid={data.dayError ? true : undefined}
            aria-describedby={data.dayError ? "trail-day-error" : undefined}
          />
          {data.dayError ? (
            <p className="field-error" id="trail-day-error" role="alert">
              {data.dayError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn btn-outline">
          Show day
        </button>
        {data.previousDay ? (
          <Link to={withParams(search, { day: data.previousDay, edit: null })} preventScrollReset>
            Previous day
          </Link>
        ) : null}
        {data.nextDay ? (
          <Link to={withParams(search, { day: data.nextDay, edit: null })} preventScrollReset>
            Next day
          </Link>
        ) : null}
      </Form>
      <p className="muted small">
        Times in {data.timeZone}. Locations are kept {data.keptDays} days.
      </p>
      {events.length ? (
        <>
          <h3>Arrivals and departures</h3>
          <ul className="trail-events" data-testid="place-events">
            {events.map((e) => (
              <li key={e.id}>
                {e.time} · {e.kind === "arrive" ? `Arrived at ${e.placeName}` : `Left ${e.placeName}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {trail.length === 0 ? (
        <p data-testid="trail-empty">No locations from {kidName}&apos;s phone on this day.</p>
      ) : (
        <div className="trail-scroll" tabIndex={0} role="region" aria-label={`Locations of ${day}, oldest first`}>
          <ol className="trail-list" data-testid="trail">
            {trail.map((p, i) => (
              <li key={i}>
                <span className="trail-time">{p.time}</span> {p.where}
                {p.accuracyM !== null ? <span className="muted small"> (within {p.accuracyM.toLocaleString("en")} m)</span> : null}
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
