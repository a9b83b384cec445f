import { json, type ActionFunctionArgs, type AppLoadContext } from "@remix-run/node";
import { checkPlace } from "#core/geofence";
import { isCalendarDay } from "#core/days";
import { localDay, localTime, shiftDay, zonedInstant } from "#core/zoned-time";
import { familyTimeZone } from "#db/queries/time-zone";
import {
  createPlace,
  deletePlace,
  findPlace,
  kidPlaceEvents,
  kidTrail,
  lastKidLocation,
  listKidPlaces,
  TRAIL_RETENTION_DAYS,
  updatePlace,
} from "#db/queries/places";
import { hrefWith } from "~/components/dashboard/device.server";
import { redirectWithToast } from "~/utils/toast.server";
import type { PlaceFormResult, PlacesData } from "./places";

/** A family names at most this many places (its kids' and its own together). */
export const FAMILY_PLACES_MAX = 50;

type Kid = { id: string; name: string; parent_id: string };

const coords = (lat: number, long: number) => `${lat.toFixed(5)}, ${long.toFixed(5)}`;

/**
 * The map page's Places and Trail sections for one kid: the places that apply (the kid's and the family's) with
 * whether the kid is there, the place being edited (`?edit=`), the phone's last location (the add form's other
 * choice of centre), and the day's trail (`?day=YYYY-MM-DD` in the family's time zone, the last 30 days).
 */
export async function placesData(context: AppLoadContext, url: URL, parentId: string, kid: Kid, now = new Date()): Promise<PlacesData> {
  const db = context.services.db;
  const tz = await familyTimeZone(db, kid.parent_id);
  const today = localDay(now, tz);
  const earliest = shiftDay(today, -(TRAIL_RETENTION_DAYS - 1));
  const asked = url.searchParams.get("day");
  let day = today;
  let dayError: string | null = null;
  if (asked !== null && asked !== "") {
    if (isCalendarDay(asked) && asked >= earliest && asked <= today) day = asked;
    else dayError = `Choose a day from ${earliest} to ${today}: the trail is kept ${TRAIL_RETENTION_DAYS} days.`;
  }
  const from = zonedInstant(day, 0, tz).toISOString();
  const to = zonedInstant(day, 1440, tz).toISOString();
  const [places, trail, events, last] = await Promise.all([
    listKidPlaces(db, kid),
    kidTrail(db, kid.id, from, to),
    kidPlaceEvents(db, kid.id, from, to),
    lastKidLocation(db, kid.id),
  ]);
  const when = (iso: string) => {
    const at = new Date(iso);
    const d = localDay(at, tz);
    return d === today ? localTime(at, tz) : `${d} ${localTime(at, tz)}`;
  };
  const editId = url.searchParams.get("edit");
  const editing = editId ? (places.find((p) => p.id === editId) ?? null) : null;
  return {
    kidId: kid.id,
    kidName: kid.name,
    timeZone: tz,
    keptDays: TRAIL_RETENTION_DAYS,
    canFamily: parentId === kid.parent_id,
    places: places.map((p) => ({ ...p, where: coords(p.latitude, p.longitude), insideLabel: p.insideSince ? when(p.insideSince) : null })),
    editing,
    editMissing: editId !== null && editing === null,
    lastLocation: last ? { latitude: Number(last.latitude), longitude: Number(last.longitude), at: when(last.device_time) } : null,
    day,
    today,
    earliest,
    dayError,
    previousDay: day > earliest ? shiftDay(day, -1) : null,
    nextDay: day < today ? shiftDay(day, 1) : null,
    trail: trail.map((p) => ({
      latitude: p.latitude,
      longitude: p.longitude,
      where: coords(p.latitude, p.longitude),
      time: localTime(new Date(p.at), tz),
      accuracyM: p.accuracyM === null ? null : Math.round(p.accuracyM),
    })),
    events: events.map((e) => ({ id: e.id, kind: e.kind, placeName: e.place_name, time: localTime(new Date(e.at), tz) })),
  };
}

const refuse = (status: 403 | 404, message: string) => new Response(message, { status });

/**
 * The Places section's forms (intent add-place, edit-place, delete-place) for one kid the parent may see. A place of
 * another family, or another kid's own place, is refused (404) as if it did not exist; a family place is changed by
 * the family's owner only (403 for a delegate). Bad input comes back with a message per field and the values typed,
 * and nothing is stored.
 */
export async function placesAction(
  args: ActionFunctionArgs,
  form: FormData,
  parentId: string,
  kid: Kid,
): Promise<Response | ReturnType<typeof json<PlaceFormResult>>> {
  const db = args.context.services.db;
  const intent = form.get("intent");
  const isOwner = parentId === kid.parent_id;
  const placeOf = async () => {
    const id = form.get("placeId");
    const place = typeof id === "string" && id ? await findPlace(db, id) : undefined;
    if (!place || place.parent_id !== kid.parent_id || (place.profile_id !== null && place.profile_id !== kid.id))
      throw refuse(404, "Place not found.");
    if (place.profile_id === null && !isOwner) throw refuse(403, "Only the family's owner can change a place for the whole family.");
    return place;
  };
  const back = (message: string) => redirectWithToast(hrefWith(args.request, { edit: null }), { type: "success", message });
  if (intent === "delete-place") {
    const place = await placeOf();
    await deletePlace(db, place.id);
    return back(`Deleted ${place.name}.`);
  }
  if (intent !== "add-place" && intent !== "edit-place") throw new Response("Unknown action.", { status: 400 });
  const existing = intent === "edit-place" ? await placeOf() : null;
  const values = {
    name: String(form.get("name") ?? ""),
    latitude: String(form.get("latitude") ?? ""),
    longitude: String(form.get("longitude") ?? ""),
    radiusM: String(form.get("radiusM") ?? ""),
    centre: form.get("centre") === "last" ? ("last" as const) : ("coordinates" as const),
    scope: form.get("scope") === "family" ? ("family" as const) : ("kid" as const),
  };
  const fail = (errors: PlaceFormResult["errors"]) => json<PlaceFormResult>({ intent, errors, values }, { status: 400 });
  let latitude: unknown = values.latitude;
  let longitude: unknown = values.longitude;
  if (values.centre === "last") {
    const last = await lastKidLocation(db, kid.id);
    if (!last) return fail({ centre: `${kid.name}'s phone has not reported a location yet: give the latitude and longitude.` });
    latitude = Number(last.latitude);
    longitude = Number(last.longitude);
  }
  const checked = checkPlace({ name: values.name, latitude, longitude, radiusM: values.radiusM });
  if (!checked.ok) return fail(checked.errors);
  if (existing) {
    await updatePlace(db, existing.id, checked.value);
    return back(`Saved ${checked.value.name}.`);
  }
  if (values.scope === "family" && !isOwner) return fail({ scope: "Only the family's owner can add a place for the whole family." });
  const count = await db
    .selectFrom("places")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", kid.parent_id)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= FAMILY_PLACES_MAX)
    return fail({ form: `A family has at most ${FAMILY_PLACES_MAX} places: delete one before adding another.` });
  await createPlace(db, { familyId: kid.parent_id, profileId: values.scope === "family" ? null : kid.id, by: parentId }, checked.value);
  return back(`Added ${checked.value.name}.`);
}
