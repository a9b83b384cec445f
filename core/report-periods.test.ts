import { describe, expect, it } from "vitest";
import {
  closedPeriods,
  isTimeZone,
  lastClosedPeriod,
  localDate,
  localMidnight,
  periodBounds,
  periodTitle,
  previousPeriod,
} from "./report-periods";

describe("report periods", () => {
  it("finds local dates and local midnights in a time zone, across daylight saving", () => {
    expect(localDate(new Date("2026-11-23T04:30:00Z"), "UTC")).toBe("2026-11-23");
    expect(localDate(new Date("2026-11-23T04:30:00Z"), "America/New_York")).toBe("2026-11-22");
    expect(localDate(new Date("2026-11-22T23:30:00Z"), "Asia/Tokyo")).toBe("2026-11-23");
    expect(localMidnight("2026-11-23", "UTC").toISOString()).toBe("2026-11-23T00:00:00.000Z");
    expect(localMidnight("2026-11-23", "America/New_York").toISOString()).toBe("2026-11-23T05:00:00.000Z");
    expect(localMidnight("2026-07-01", "America/New_York").toISOString()).toBe("2026-07-01T04:00:00.000Z");
    expect(localMidnight("2026-11-23", "Asia/Tokyo").toISOString()).toBe("2026-11-22T15:00:00.000Z");
    // Europe/London changes to summer time on 2026-03-29: that day is 23 hours long.
    expect(localMidnight("2026-03-30", "Europe/London").getTime() - localMidnight("2026-03-29", "Europe/London").getTime()).toBe(
      23 * 3_600_000,
    );
  });

  it("closes a week on Sunday night and a month on its last night, in the family's time zone", () => {
    // Monday 2026-11-23 04:00 UTC: in London the week of Nov 16–22 has closed; in New York it is still Sunday the 22nd.
    const now = new Date("2026-11-23T04:00:00Z");
    expect(lastClosedPeriod("Weekly", now, "UTC")).toEqual({ kind: "Weekly", start: "2026-11-16", end: "2026-11-23" });
    expect(lastClosedPeriod("Weekly", now, "America/New_York")).toEqual({ kind: "Weekly", start: "2026-11-09", end: "2026-11-16" });
    expect(lastClosedPeriod("Monthly", new Date("2026-12-01T00:30:00Z"), "UTC")).toEqual({
      kind: "Monthly",
      start: "2026-11-01",
      end: "2026-12-01",
    });
    expect(lastClosedPeriod("Monthly", new Date("2026-12-01T00:30:00Z"), "America/Los_Angeles")).toEqual({
      kind: "Monthly",
      start: "2026-10-01",
      end: "2026-11-01",
    });
    expect(lastClosedPeriod("Monthly", new Date("2027-01-01T00:30:00Z"), "UTC")).toEqual({
      kind: "Monthly",
      start: "2026-12-01",
      end: "2027-01-01",
    });
    expect(previousPeriod({ kind: "Weekly", start: "2026-11-16", end: "2026-11-23" })).toEqual({
      kind: "Weekly",
      start: "2026-11-09",
      end: "2026-11-16",
    });
    expect(previousPeriod({ kind: "Monthly", start: "2026-01-01", end: "2026-02-01" })).toEqual({
      kind: "Monthly",
      start: "2025-12-01",
      end: "2026-01-01",
    });
  });

  it("lists every closed period since a date, oldest first", () => {
    const now = new Date("2026-11-23T04:00:00Z");
    const weeks = closedPeriods("Weekly", "2026-10-28", now, "UTC");
    expect(weeks.map((p) => p.start)).toEqual(["2026-11-02", "2026-11-09", "2026-11-16"]);
    expect(closedPeriods("Monthly", "2026-09-15", now, "UTC").map((p) => p.start)).toEqual(["2026-10-01"]);
    expect(closedPeriods("Weekly", "2027-01-01", now, "UTC")).toEqual([]);
  });

  it("gives a period's instants and a title; refuses unknown time zones", () => {
    expect(periodBounds({ kind: "Weekly", start: "2026-11-16", end: "2026-11-23" }, "Asia/Tokyo")).toEqual({
      from: "2026-11-15T15:00:00.000Z",
      to: "2026-11-22T15:00:00.000Z",
    });
    expect(periodTitle("Mia", { kind: "Weekly", start: "2026-11-16", end: "2026-11-23" })).toBe(
      "Mia's weekly report: Nov 16 – Nov 22, 2026",
    );
    expect(periodTitle("Leo", { kind: "Monthly", start: "2026-10-01", end: "2026-11-01" })).toBe("Leo's monthly report: October 2026");
    expect(isTimeZone("Europe/London")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });
});
