import { describe, expect, it } from "vitest";
import { checkPlace, decideFence, distanceM, fenceMargin, type Fix, type KnownPresence, type Presence } from "./geofence";

const HOME = { latitude: 51.5014, longitude: -0.1419, radiusM: 200 };
/** A point `m` metres north of the centre (a degree of latitude is 111,195 m on the mean sphere). */
const north = (m: number, accuracyM: number | null = 10, at = "2026-11-29T10:00:00.000Z"): Fix => ({
  latitude: HOME.latitude + m / 111_195,
  longitude: HOME.longitude,
  accuracyM,
  at,
});
const minute = (n: number) => new Date(Date.parse("2026-11-29T10:00:00.000Z") + n * 60_000).toISOString();

/** Runs fixes through the decision as the ingest does; returns the events and the presence after. */
function walk(start: KnownPresence | null, fixes: Fix[], fence = HOME): { events: string[]; state: Presence | null } {
  let known = start;
  const events: string[] = [];
  for (const fix of fixes) {
    const d = decideFence(known, fix, fence);
    if (!d.change) continue;
    if (d.event) events.push(d.event);
    known = { state: d.state, since: fix.at };
  }
  return { events, state: known?.state ?? null };
}

describe("distanceM (haversine)", () => {
  it.each([
    ["the same point", { latitude: 51.5, longitude: -0.14 }, { latitude: 51.5, longitude: -0.14 }, 0, 0.001],
    ["one degree of latitude", { latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 }, 111_195, 5],
    ["London to Paris", { latitude: 51.5074, longitude: -0.1278 }, { latitude: 48.8566, longitude: 2.3522 }, 343_550, 1_000],
    ["across the antimeridian", { latitude: 0, longitude: 179.999 }, { latitude: 0, longitude: -179.999 }, 222.4, 1],
  ])("%s", (_n, a, b, metres, within) => {
    expect(Math.abs(distanceM(a, b) - metres)).toBeLessThanOrEqual(within);
  });
});

describe("fenceMargin", () => {
  it.each([
    [50, null, 25], // the floor of 25 m, at most half the radius
    [200, 5, 40], // 20 % of the radius
    [200, 60, 60], // the fix's accuracy when worse
    [200, 150, 100], // never more than half the radius
    [5_000, 10, 1_000],
  ])("radius %d m, accuracy %s → %d m", (radius, accuracy, margin) => {
    expect(fenceMargin(radius, accuracy)).toBe(margin);
  });
});

describe("decideFence: one fix", () => {
  const inside: KnownPresence = { state: "inside", since: minute(-10) };
  const outside: KnownPresence = { state: "outside", since: minute(-10) };
  it.each<[string, KnownPresence | null, Fix, ReturnType<typeof decideFence>]>([
    ["outside, a fix well inside: arrive", outside, north(50), { change: true, state: "inside", event: "arrive" }],
    ["inside, a fix well outside: leave", inside, north(400), { change: true, state: "outside", event: "leave" }],
    ["outside, a fix just inside the edge (within the margin): nothing", outside, north(180), { change: false, reason: "edge" }],
    ["inside, a fix just outside the edge (within the margin): nothing", inside, north(230), { change: false, reason: "edge" }],
    ["outside, a fix at radius − margin exactly: arrive", outside, north(159.9), { change: true, state: "inside", event: "arrive" }],
    ["inside, a fix beyond radius + margin: leave", inside, north(241), { change: true, state: "outside", event: "leave" }],
    ["inside, a fix inside: nothing", inside, north(10), { change: false, reason: "same" }],
    ["unknown, a fix inside: inside, no event", null, north(10), { change: true, state: "inside", event: null }],
    ["unknown, a fix outside: outside, no event", null, north(1_000), { change: true, state: "outside", event: null }],
    ["unknown, a fix on the edge: still unknown", null, north(200), { change: false, reason: "edge" }],
    ["a fix less accurate than the radius: ignored", outside, north(0, 250), { change: false, reason: "inaccurate" }],
    ["a fix as accurate as the radius: counted", outside, north(0, 200), { change: true, state: "inside", event: "arrive" }],
    ["a fix of unknown accuracy: counted", outside, north(0, null), { change: true, state: "inside", event: "arrive" }],
    ["a fix older than the last transition: ignored", outside, north(0, 10, minute(-20)), { change: false, reason: "stale" }],
    // Accuracy widens the band: with 80 m accuracy a fix 130 m out (inside the radius) no longer counts as inside.
    ["a poor fix just inside: nothing", outside, north(130, 80), { change: false, reason: "edge" }],
  ])("%s", (_name, known, fix, want) => {
    expect(decideFence(known, fix, HOME)).toEqual(want);
  });
});

describe("decideFence: a walk of fixes (the ingest's sequence)", () => {
  const t = (m: number, i: number, acc: number | null = 10) => north(m, acc, minute(i));
  it.each<[string, KnownPresence | null, Fix[], string[], Presence | null]>([
    ["walking in from outside: one arrive", null, [t(1_000, 0), t(600, 1), t(300, 2), t(100, 3), t(20, 4)], ["arrive"], "inside"],
    ["walking out: one leave", null, [t(0, 0), t(150, 1), t(250, 2), t(900, 3)], ["leave"], "outside"],
    [
      "GPS jitter at the edge, starting outside: no events",
      null,
      [t(1_000, 0), ...[195, 210, 170, 235, 185, 225, 200, 175, 238].map((m, i) => t(m, i + 1))],
      [],
      "outside",
    ],
    [
      "GPS jitter at the edge, starting inside: no events",
      null,
      [t(0, 0), ...[195, 210, 170, 235, 185, 225, 200, 165, 238].map((m, i) => t(m, i + 1))],
      [],
      "inside",
    ],
    [
      "in, out, in again: three transitions",
      { state: "outside", since: minute(-1) },
      [t(0, 0), t(500, 1), t(0, 2)],
      ["arrive", "leave", "arrive"],
      "inside",
    ],
    [
      "a wild inaccurate fix while inside: no leave",
      { state: "inside", since: minute(-1) },
      [t(0, 0), t(3_000, 1, 2_500), t(5, 2)],
      [],
      "inside",
    ],
    ["the same fix sent twice: one arrive", { state: "outside", since: minute(-1) }, [t(0, 0), t(0, 0)], ["arrive"], "inside"],
  ])("%s", (_name, start, fixes, events, state) => {
    expect(walk(start, fixes)).toEqual({ events, state });
  });
});

describe("checkPlace", () => {
  const good = { name: "School", latitude: "51.5", longitude: "-0.14", radiusM: "300" };
  it("takes a good place", () => {
    expect(checkPlace(good)).toEqual({ ok: true, value: { name: "School", latitude: 51.5, longitude: -0.14, radiusM: 300 } });
  });
  it.each<[string, Partial<typeof good>, Record<string, string>]>([
    ["no name", { name: "  " }, { name: "Give the place a name." }],
    ["a long name", { name: "x".repeat(41) }, { name: "A place's name is at most 40 characters." }],
    ["a latitude out of range", { latitude: "91" }, { latitude: "The latitude is a number from -90 to 90." }],
    ["a longitude out of range", { longitude: "-180.5" }, { longitude: "The longitude is a number from -180 to 180." }],
    ["a latitude that is not a number", { latitude: "1e2" }, { latitude: "The latitude is a number from -90 to 90." }],
    ["a radius too small", { radiusM: "49" }, { radiusM: "The radius is a whole number of metres from 50 to 5,000." }],
    ["a radius too large", { radiusM: "5001" }, { radiusM: "The radius is a whole number of metres from 50 to 5,000." }],
    ["a radius with decimals", { radiusM: "100.5" }, { radiusM: "The radius is a whole number of metres from 50 to 5,000." }],
  ])("refuses %s", (_n, change, errors) => {
    expect(checkPlace({ ...good, ...change })).toEqual({ ok: false, errors });
  });
});
