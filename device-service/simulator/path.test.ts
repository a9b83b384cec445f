import { describe, expect, it } from "vitest";
import { distanceM } from "../../core/geofence";
import { MAX_STEPS, parsePath, parsePoint, STEP_M, walkTo } from "./path";

describe("the simulated phone's path (--path, --move-to)", () => {
  it("reads points and paths", () => {
    expect(parsePoint(" 51.5, -0.14 ")).toEqual({ latitude: 51.5, longitude: -0.14 });
    expect(parsePath("51.5,-0.14; 51.51,-0.13;")).toEqual([
      { latitude: 51.5, longitude: -0.14 },
      { latitude: 51.51, longitude: -0.13 },
    ]);
  });

  it.each(["91,0", "0,181", "51.5", "a,b", "51.5,-0.14,3", "1e2,0"])("refuses %s with a readable message", (bad) => {
    expect(() => parsePath(bad)).toThrow(/is not a point: write "<latitude>,<longitude>"/);
  });

  it("refuses an empty path", () => {
    expect(() => parsePath(" ; ")).toThrow("A path is at least one point");
  });

  it("walks in a straight line in steps of at most 100 m, ending at the destination", () => {
    const from = { latitude: 51.5014, longitude: -0.1419 };
    const to = { latitude: 51.5064, longitude: -0.1319 };
    const steps = walkTo(from, to);
    expect(steps.at(-1)).toEqual(to);
    let at = from;
    for (const p of steps) {
      expect(distanceM(at, p)).toBeLessThanOrEqual(STEP_M + 0.5);
      at = p;
    }
    expect(steps.length).toBe(Math.ceil(distanceM(from, to) / STEP_M));
    // A far destination: at most MAX_STEPS steps.
    expect(walkTo(from, { latitude: 48.85, longitude: 2.35 })).toHaveLength(MAX_STEPS);
  });
});
