import { describe, expect, it } from "vitest";
import {
  anyPointInView,
  clipRing,
  insideRing,
  MAX_LATITUDE,
  project,
  ringBounds,
  ringsPath,
  unproject,
  viewAround,
  viewBounds,
  type Ring,
} from "./map-projection";

describe("Web Mercator", () => {
  it.each([
    // long, lat, zoom → world pixel (Leaflet's and the tiles')
    [0, 0, 0, [128, 128]],
    [-180, MAX_LATITUDE, 0, [0, 0]],
    [180, -MAX_LATITUDE, 0, [256, 256]],
    [0, 0, 7, [16384, 16384]],
    // The OpenStreetMap tile of Buckingham Palace at zoom 12 is 2046/1362 (256 px each).
    [-0.1419, 51.5014, 12, [523874.7, 348706.4]],
  ] as const)("(%s, %s) at zoom %s → %j", (long, lat, zoom, [x, y]) => {
    const [px, py] = project(long, lat, zoom);
    expect(px).toBeCloseTo(x, 0);
    expect(py).toBeCloseTo(y, 0);
  });

  it("unproject undoes project; latitudes past Mercator's square are held at its edge", () => {
    for (const [long, lat] of [
      [-0.1419, 51.5014],
      [151.2, -33.9],
      [-179.9, 64.8],
    ]) {
      const [x, y] = project(long, lat, 9);
      const back = unproject(x, y, 9);
      expect(back[0]).toBeCloseTo(long, 6);
      expect(back[1]).toBeCloseTo(lat, 6);
    }
    expect(project(0, 89.9, 3)[1]).toBeCloseTo(0, 6);
  });

  it("a view is centred on its point and its bounds hold the point", () => {
    const view = viewAround(51.5, -0.14, 7, 960, 640);
    const [x, y] = project(-0.14, 51.5, 7);
    expect(view.left + view.width / 2).toBeCloseTo(x, 6);
    expect(view.top + view.height / 2).toBeCloseTo(y, 6);
    const [w, s, e, n] = viewBounds(view);
    expect(w).toBeLessThan(-0.14);
    expect(e).toBeGreaterThan(-0.14);
    expect(s).toBeLessThan(51.5);
    expect(n).toBeGreaterThan(51.5);
    // 960 pixels at zoom 7 are 960 / (256 × 128) of 360°.
    expect(e - w).toBeCloseTo((960 / 32768) * 360, 6);
    const wider = viewBounds(view, 10);
    expect(wider[0]).toBeLessThan(w);
    expect(wider[3]).toBeGreaterThan(n);
  });
});

describe("clipping to a rectangle", () => {
  const square: Ring = [
    [0, 0],
    [10, 0],
    [10, 10],
    [0, 10],
    [0, 0],
  ];
  it.each([
    ["inside: unchanged (the closing point dropped)", [-1, -1, 11, 11], square.slice(0, 4)],
    ["outside: nothing", [20, 20, 30, 30], []],
    [
      "across one corner: the overlap",
      [5, 5, 15, 15],
      [
        [5, 5],
        [10, 5],
        [10, 10],
        [5, 10],
      ],
    ],
    [
      "a window inside it: the window",
      [2, 3, 4, 5],
      [
        [2, 3],
        [4, 3],
        [4, 5],
        [2, 5],
      ],
    ],
  ] as const)("%s", (_, box, expected) => {
    const out = clipRing(square, box as unknown as [number, number, number, number]);
    expect(new Set(out.map((p) => p.join(",")))).toEqual(new Set((expected as readonly (readonly number[])[]).map((p) => p.join(","))));
  });

  it("cuts a slanted edge where it crosses", () => {
    const triangle: Ring = [
      [0, 0],
      [10, 10],
      [0, 10],
    ];
    expect(clipRing(triangle, [0, 0, 5, 10])).toEqual([
      [0, 0],
      [5, 5],
      [5, 10],
      [0, 10],
    ]);
  });

  it("even-odd inside test and a ring's bounds", () => {
    expect(insideRing([5, 5], square)).toBe(true);
    expect(insideRing([15, 5], square)).toBe(false);
    expect(ringBounds(square)).toEqual([0, 0, 10, 10]);
  });
});

describe("rings as SVG path data in a view", () => {
  // A small island of 1° around (0, 0), seen at zoom 5 (1° ≈ 22.8 px).
  const island: Ring = [
    [-0.5, -0.5],
    [0.5, -0.5],
    [0.5, 0.5],
    [-0.5, 0.5],
    [-0.5, -0.5],
  ];
  it("projects around the view's centre, one decimal", () => {
    const view = viewAround(0, 0, 5, 200, 100);
    expect(ringsPath([island], view)).toBe("M88.6 61.4L111.4 61.4L111.4 38.6L88.6 38.6Z");
    expect(anyPointInView([island], view)).toBe(true);
  });

  it("clips what lies past the view (with the margin) and leaves out what is far away", () => {
    const view = viewAround(0, 0.5, 5, 20, 20); // the island's right edge runs through the view's middle
    const d = ringsPath([island], view, 4);
    const xs = [...d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)].map((m) => Number(m[1]));
    expect(Math.min(...xs)).toBe(-4);
    expect(Math.max(...xs)).toBeCloseTo(10, 0);
    const far = viewAround(40, 40, 5, 200, 100);
    expect(ringsPath([island], far)).toBe("");
    expect(anyPointInView([island], far)).toBe(false);
  });

  it("a view across the antimeridian draws the land on its other side too", () => {
    const east: Ring = [
      [-179.5, -0.5],
      [-179, -0.5],
      [-179, 0.5],
      [-179.5, 0.5],
    ];
    const view = viewAround(0, 179.8, 5, 200, 100);
    expect(ringsPath([east], view)).not.toBe("");
    expect(anyPointInView([east], view)).toBe(true);
  });
});
