import { describe, expect, it } from "vitest";
import { baseMapSvg, OUTLINES_VERSION, outlinesHref } from "./base-map";

describe("the base map's pieces", () => {
  it.each([
    [51.5014, -0.1419, `/resources/map-outlines?lat=51&long=-1&v=${OUTLINES_VERSION}`],
    [-33.87, 151.21, `/resources/map-outlines?lat=-34&long=151&v=${OUTLINES_VERSION}`],
    [10, 180, `/resources/map-outlines?lat=10&long=179&v=${OUTLINES_VERSION}`],
    [90, -180, `/resources/map-outlines?lat=89&long=-180&v=${OUTLINES_VERSION}`],
  ])("outlines for (%s, %s): %s", (lat, long, href) => {
    expect(outlinesHref(lat, long)).toBe(href);
  });

  it("an SVG named for a screen reader (escaped), covering its box around the middle", () => {
    const svg = baseMapSvg({ width: 960, height: 640, land: "M0 0L10 0L10 10Z" }, `Map of Zoë "Z" <b>'s last location`);
    expect(svg).toContain('viewBox="0 0 960 640" preserveAspectRatio="xMidYMid slice" role="img"');
    expect(svg).toContain('aria-label="Map of Zoë &quot;Z&quot; &lt;b>\'s last location"');
    expect(svg).toContain('d="M0 0L10 0L10 10Z"');
  });
});
