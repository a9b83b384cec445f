import { describe, expect, it } from "vitest";
import { baseMapAround, BASE_MAP_ZOOMS, countryAt, outlinesGeoJson, OUTLINE_WINDOW } from "./outlines.server";

describe("the base map shipped with the product (world-atlas, Natural Earth 1:50m)", () => {
  it.each([
    [51.5014, -0.1419, "United Kingdom"],
    [48.8566, 2.3522, "France"],
    [-33.87, 151.21, "Australia"],
    [50.0, -30.0, null], // the North Atlantic
  ])("(%s, %s) is in %s", (lat, long, country) => {
    expect(countryAt(lat, long)).toBe(country);
  });

  it("draws London at the closest zoom: its coasts are in view, a few kilobytes of path", () => {
    const map = baseMapAround(51.5014, -0.1419);
    expect(map.zoom).toBe(BASE_MAP_ZOOMS.closest);
    expect(map.country).toBe("United Kingdom");
    expect(map.land).toMatch(/^M[\d.-]+ [\d.-]+L/);
    expect(map.land.length).toBeGreaterThan(1000);
    expect(map.land.length).toBeLessThan(40_000);
    // Every point within the view and its 8-pixel margin.
    for (const m of map.land.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) {
      expect(Number(m[1])).toBeGreaterThanOrEqual(-8);
      expect(Number(m[1])).toBeLessThanOrEqual(map.width + 8);
      expect(Number(m[2])).toBeGreaterThanOrEqual(-8);
      expect(Number(m[2])).toBeLessThanOrEqual(map.height + 8);
    }
  });

  it("zooms out from the middle of a large country until a border or a coast shows", () => {
    const kansas = baseMapAround(38.5, -98.0);
    expect(kansas.zoom).toBeLessThan(BASE_MAP_ZOOMS.closest);
    expect(kansas.zoom).toBeGreaterThanOrEqual(BASE_MAP_ZOOMS.widest);
    expect(kansas.land).not.toBe("");
  });

  it("serves the outlines around a cell as GeoJSON, clipped to the window, tens of kilobytes", () => {
    const fc = outlinesGeoJson(51, -1);
    const names = fc.features.map((f) => f.properties.name);
    expect(names).toEqual(expect.arrayContaining(["United Kingdom", "France", "Ireland"]));
    expect(names).not.toContain("Australia");
    for (const f of fc.features)
      for (const polygon of f.geometry.coordinates)
        for (const ring of polygon) {
          expect(ring[0]).toEqual(ring[ring.length - 1]);
          for (const [x, y] of ring) {
            expect(x).toBeGreaterThanOrEqual(-1 - OUTLINE_WINDOW.long);
            expect(x).toBeLessThanOrEqual(-1 + 1 + OUTLINE_WINDOW.long);
            expect(y).toBeGreaterThanOrEqual(51 - OUTLINE_WINDOW.lat);
            expect(y).toBeLessThanOrEqual(51 + 1 + OUTLINE_WINDOW.lat);
          }
        }
    expect(JSON.stringify(fc).length).toBeLessThan(200_000);
  });

  it("a cell by the antimeridian gets the land on its other side, shifted next to it", () => {
    const fc = outlinesGeoJson(65, 179);
    const xs = fc.features.flatMap((f) => f.geometry.coordinates.flat(2).map(([x]) => x));
    expect(fc.features.map((f) => f.properties.name)).toEqual(expect.arrayContaining(["Russia", "United States of America"]));
    expect(Math.max(...xs)).toBeGreaterThan(180); // Alaska, east of the line, drawn at 180°+
  });
});
