import { describe, expect, it } from "vitest";
import { externalMapUrl, localMapHref, mapBbox, trackingInterval } from "./location";

describe("location tracking", () => {
  it.each([
    [false, 30, 0],
    [true, 0, 15],
    [true, 20, 30],
    [true, 45, 45],
  ])("tracking %j with interval %j → %j", (on, v, out) => expect(trackingInterval(on, v)).toBe(out));
});

describe("map", () => {
  it("uses a 0.001° bounding box, zoom 12 locally and 13 on the external link", () => {
    expect(mapBbox(51.5014, -0.1419)).toEqual([-0.1429, 51.5004, -0.1409, 51.5024]);
    expect(localMapHref(51.5, -0.1)).toBe("/map?lat=51.5&long=-0.1&zoom=12&bbox=-0.101%2C51.499%2C-0.099%2C51.501");
    expect(localMapHref(51.5, -0.1, "2026-11-28T10:00:00.000Z", { profileId: "p1", embed: true })).toBe(
      "/map?lat=51.5&long=-0.1&zoom=12&bbox=-0.101%2C51.499%2C-0.099%2C51.501&at=2026-11-28T10%3A00%3A00.000Z&profileId=p1&embed=1",
    );
    expect(externalMapUrl(51.5, -0.1)).toBe("https://www.openstreetmap.org/?mlat=51.5&mlon=-0.1#map=13/51.5/-0.1");
  });
});
