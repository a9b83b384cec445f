import { describe, expect, it } from "vitest";
import { hhmm, isTimeZone, localDay, nextMidnight, parseHhmm, wallClock, zonedInstant } from "./zoned-time";

describe("wall-clock time in a family's zone", () => {
  it.each([
    ["UTC", "2026-11-23T15:04:00Z", "2026-11-23", 0, 15 * 60 + 4],
    ["Europe/London", "2026-07-01T23:30:00Z", "2026-07-02", 3, 30],
    ["America/New_York", "2026-11-30T04:30:00Z", "2026-11-29", 6, 23 * 60 + 30],
    ["Asia/Kolkata", "2026-11-23T20:00:00Z", "2026-11-24", 1, 90],
  ])("%s at %s is %s (weekday %s, minute %s)", (zone, at, day, weekday, minute) => {
    const w = wallClock(new Date(at), zone);
    expect([w.date, w.weekday, w.minuteOfDay]).toEqual([day, weekday, minute]);
    expect(localDay(new Date(at), zone)).toBe(day);
  });

  it.each([
    ["an ordinary time", "2026-11-23", 21 * 60, "Europe/London", "2026-11-23T21:00:00.000Z"],
    ["summer time", "2026-07-01", 21 * 60, "Europe/London", "2026-07-01T20:00:00.000Z"],
    ["a time the clocks jump over moves forward by the gap", "2026-03-29", 60 + 30, "Europe/London", "2026-03-29T01:30:00.000Z"],
    ["the start of the jump", "2026-03-29", 60, "Europe/London", "2026-03-29T01:00:00.000Z"],
    ["a time that happens twice is the first", "2026-10-25", 90, "Europe/London", "2026-10-25T00:30:00.000Z"],
    ["the next midnight (1440)", "2026-07-01", 1440, "Europe/London", "2026-07-01T23:00:00.000Z"],
    ["New York", "2026-11-23", 7 * 60, "America/New_York", "2026-11-23T12:00:00.000Z"],
  ])("%s", (_n, day, minute, zone, want) => expect(zonedInstant(day, minute, zone).toISOString()).toBe(want));

  it("the next midnight is the family's", () => {
    expect(nextMidnight(new Date("2026-07-01T15:00:00Z"), "Europe/London").toISOString()).toBe("2026-07-01T23:00:00.000Z");
    expect(nextMidnight(new Date("2026-11-23T15:00:00Z"), "UTC").toISOString()).toBe("2026-11-24T00:00:00.000Z");
  });

  it("zone names and clock times", () => {
    expect([isTimeZone("Europe/London"), isTimeZone("Mars/Base"), isTimeZone(""), isTimeZone(5)]).toEqual([true, false, false, false]);
    expect([parseHhmm("07:00"), parseHhmm("21:30"), parseHhmm("24:00"), parseHhmm("7:00"), hhmm(420), hhmm(1440)]).toEqual([
      420,
      1290,
      null,
      null,
      "07:00",
      "00:00",
    ]);
  });
});
