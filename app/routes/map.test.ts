import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { action as mapAction, loader as mapPage } from "./map";
import type { PlaceFormResult, PlacesData } from "~/components/map/places";
import { loader as outlines } from "./resources.map-outlines";

const MIA = "DEMO-MIA-0001";
const LONDON = "lat=51.5014&long=-0.1419&zoom=12";

/** The map page and its outlines (issue 53 item 7): the base map shipped with the product. */
describe("/map and /resources/map-outlines", () => {
  let rh: RouteHarness;
  let profileId: string;
  beforeAll(async () => {
    rh = await startRouteHarness();
    profileId = (await rh.h.kid(MIA)).profileId;
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  it("draws the base map around the pin, named after the kid", async () => {
    const res = await rh.call(mapPage, `/map?${LONDON}&profileId=${profileId}&embed=1`);
    expect(res.status).toBe(200);
    const data = (await res.json()) as { title: string; country: string; embed: boolean; outlineZoom: number; baseSvg: string };
    expect(data.title).toBe("Map of Mia's last location");
    expect(data.country).toBe("United Kingdom");
    expect(data.embed).toBe(true);
    expect(data.outlineZoom).toBe(7);
    expect(data.baseSvg).toMatch(
      /^<svg [^>]*role="img" aria-label="Map of Mia's last location: country borders and coasts around United Kingdom, the pin at 51\.50140, -0\.14190">/,
    );
    expect(data.baseSvg).toMatch(/<path d="M[^"]{1000,}"/);
  });

  it("without a kid: named after the place; another family's kid: 404; no place: 400", async () => {
    const plain = (await (await rh.call(mapPage, `/map?${LONDON}`)).json()) as { title: string };
    expect(plain.title).toBe("Map of 51.50140, -0.14190");
    expect((await rh.call(mapPage, `/map?${LONDON}&profileId=${profileId}`, { token: rh.otherToken })).status).toBe(404);
    expect((await rh.call(mapPage, `/map?lat=95&long=0`)).status).toBe(400);
  });

  it("serves a cell's outlines as GeoJSON kept a year; refuses anything but whole degrees; needs a session", async () => {
    const res = await rh.call(outlines, "/resources/map-outlines?lat=51&long=-1&v=x");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/geo+json; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    const fc = (await res.json()) as { type: string; features: { properties: { name: string } }[] };
    expect(fc.type).toBe("FeatureCollection");
    expect(fc.features.map((f) => f.properties.name)).toContain("France");
    for (const bad of ["lat=51.5&long=-1", "lat=90&long=0", "lat=0&long=180", "lat=&long=0", "long=0"]) {
      expect((await rh.call(outlines, `/resources/map-outlines?${bad}`)).status, bad).toBe(400);
    }
    const signedOut = await rh.call(outlines, "/resources/map-outlines?lat=51&long=-1", { token: "not-a-session" });
    expect(signedOut.status).not.toBe(200);
  });

  describe("places and the trail (issue 55 items 1 and 2)", () => {
    const page = (extra = "") => `/map?${LONDON}&profileId=${profileId}${extra}`;
    const data = async (extra = "", token?: string) =>
      ((await (await rh.call(mapPage, page(extra), { token })).json()) as { places: PlacesData }).places;
    const good = {
      intent: "add-place",
      name: "School",
      radiusM: "300",
      centre: "coordinates",
      latitude: "51.5030",
      longitude: "-0.1400",
      scope: "kid",
    };
    const stored = () =>
      rh.h.tdb.db.selectFrom("places").select(["id", "name", "profile_id", "parent_id", "radius_m"]).orderBy("name").execute();

    it("adds a place for the kid and one at the phone's last location for the family; lists them with who is there", async () => {
      const res = await rh.call(mapAction, page(), { form: good });
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe(page());
      expect(await rh.toastOf(res)).toMatchObject({ type: "success", message: "Added School." });
      const home = await rh.call(mapAction, page(), {
        form: { ...good, name: "Home", centre: "last", latitude: "", longitude: "", scope: "family" },
      });
      expect(home.status).toBe(302);
      const rows = await stored();
      expect(rows.map((r) => [r.name, r.profile_id, r.radius_m])).toEqual([
        ["Home", null, 300],
        ["School", profileId, 300],
      ]);
      const d = await data();
      expect(d.places.map((p) => [p.name, p.scope, p.insideLabel])).toEqual([
        ["Home", "family", null],
        ["School", "kid", null],
      ]);
      expect(d.lastLocation).not.toBeNull();
      expect(d.places[0].latitude).toBe(d.lastLocation!.latitude);
    });

    it("refuses bad input with a message per field and stores nothing", async () => {
      const before = (await stored()).length;
      const cases: [Record<string, string>, Partial<PlaceFormResult["errors"]>][] = [
        [{ latitude: "91" }, { latitude: "The latitude is a number from -90 to 90." }],
        [{ longitude: "200" }, { longitude: "The longitude is a number from -180 to 180." }],
        [{ latitude: "north" }, { latitude: "The latitude is a number from -90 to 90." }],
        [{ radiusM: "20" }, { radiusM: "The radius is a whole number of metres from 50 to 5,000." }],
        [{ radiusM: "9000" }, { radiusM: "The radius is a whole number of metres from 50 to 5,000." }],
        [{ name: "" }, { name: "Give the place a name." }],
        [{ name: "x".repeat(41) }, { name: "A place's name is at most 40 characters." }],
      ];
      for (const [change, errors] of cases) {
        const res = await rh.call(mapAction, page(), { form: { ...good, ...change } });
        expect(res.status, JSON.stringify(change)).toBe(400);
        const body = (await res.json()) as PlaceFormResult;
        expect(body.errors).toEqual(errors);
        // What was typed comes back.
        expect(body.values).toMatchObject({ name: change.name ?? "School", radiusM: change.radiusM ?? "300" });
      }
      expect((await stored()).length).toBe(before);
    });

    it("edits and deletes a place; another family's place is refused and left alone", async () => {
      const [home, school] = await stored();
      const edit = await rh.call(mapAction, page(), {
        form: { ...good, intent: "edit-place", placeId: school.id, name: "Big school", radiusM: "500" },
      });
      expect(edit.status).toBe(302);
      expect((await stored()).find((r) => r.id === school.id)).toMatchObject({ name: "Big school", radius_m: 500 });
      const editing = await data(`&edit=${school.id}`);
      expect(editing.editing?.name).toBe("Big school");
      // Another family's parent names this family's place through their own kid: refused, nothing changed.
      const other = rh.h.other;
      const theirs = `/map?${LONDON}&profileId=${other.profileId}`;
      for (const form of [
        { intent: "delete-place", placeId: home.id },
        { ...good, intent: "edit-place", placeId: school.id, name: "Taken" },
      ]) {
        const res = await rh.call(mapAction, theirs, { token: rh.otherToken, form });
        expect(res.status).toBe(404);
      }
      // And through this family's kid: not their kid.
      expect((await rh.call(mapAction, page(), { token: rh.otherToken, form: { intent: "delete-place", placeId: home.id } })).status).toBe(
        404,
      );
      expect((await stored()).map((r) => r.name)).toEqual(["Big school", "Home"]);
      const del = await rh.call(mapAction, page(), { form: { intent: "delete-place", placeId: school.id } });
      expect(await rh.toastOf(del)).toMatchObject({ message: "Deleted Big school." });
      expect((await stored()).map((r) => r.name)).toEqual(["Home"]);
    });

    it("shows the day's trail in order in the family's time zone; a day outside the 30 days is refused with a message", async () => {
      const d = await data();
      expect(d.day).toBe(d.today);
      const day = await data(`&day=${d.earliest}`);
      expect(day.day).toBe(d.earliest);
      expect(day.previousDay).toBeNull();
      for (const bad of ["2020-01-01", "tomorrow", "2026-02-30"]) {
        const r = await data(`&day=${bad}`);
        expect(r.day).toBe(d.today);
        expect(r.dayError).toBe(`Choose a day from ${d.earliest} to ${d.today}: the trail is kept 30 days.`);
      }
      const times = d.trail.map((p) => p.time);
      expect([...times].sort()).toEqual(times);
    });
  });
});
