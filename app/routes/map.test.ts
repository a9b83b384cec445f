import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import { loader as mapPage } from "./map";
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
});
