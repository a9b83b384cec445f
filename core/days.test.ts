import { describe, expect, it } from "vitest";
import { addDays, dayParam, dayRange, isCalendarDay } from "./days";

describe("calendar days", () => {
  it.each([
    ["2026-11-23", true],
    ["2026-02-29", false],
    ["2028-02-29", true],
    ["2026-13-01", false],
    ["2026-1-1", false],
    ["", false],
    ["2026-11-23T00:00:00Z", false],
  ])("%s is a day: %s", (d, ok) => expect(isCalendarDay(d)).toBe(ok));

  it("steps one day at a time across months and years", () => {
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
  });

  it("a missing or bad parameter reads as today", () => {
    const now = new Date("2026-11-23T22:00:00Z");
    expect(dayParam(null, now)).toBe("2026-11-23");
    expect(dayParam("yesterday", now)).toBe("2026-11-23");
    expect(dayParam("2026-11-20", now)).toBe("2026-11-20");
    expect(dayRange("2026-11-23")).toEqual({ from: "2026-11-23T00:00:00.000Z", to: "2026-11-24T00:00:00.000Z" });
  });
});
