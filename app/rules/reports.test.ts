import { describe, expect, it } from "vitest";
import { MONTHS, reportFilter, reportYears } from "./reports";

describe("report filters (spec 2 §9)", () => {
  it("offers January to December and the current year with the four before it", () => {
    expect(MONTHS).toEqual([
      "January",
      "February",
      "March",
      "April",
      "May",
      "June",
      "July",
      "August",
      "September",
      "October",
      "November",
      "December",
    ]);
    expect(reportYears(new Date("2026-11-23T04:00:00Z"))).toEqual([2026, 2025, 2024, 2023, 2022]);
  });

  it("reads month and year from the URL, defaulting to now and refusing what is not offered", () => {
    const now = new Date("2026-11-23T04:00:00Z");
    expect(reportFilter(new URLSearchParams(""), now)).toEqual({ month: 11, year: 2026 });
    expect(reportFilter(new URLSearchParams("month=3&year=2024"), now)).toEqual({ month: 3, year: 2024 });
    expect(reportFilter(new URLSearchParams("month=13&year=2019"), now)).toEqual({ month: 11, year: 2026 });
    expect(reportFilter(new URLSearchParams("month=2abc&year=1e3"), now)).toEqual({ month: 11, year: 2026 });
  });
});
