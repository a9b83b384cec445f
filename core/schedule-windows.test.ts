import { describe, expect, it } from "vitest";
import { activeWindows, isInside, nextWindow } from "./schedule-windows";

// School time Monday–Friday 08:00–15:00; Bedtime every day 21:00–07:00 (over midnight). 0 = Monday.
const SCHOOL = { days: [0, 1, 2, 3, 4], start: 480, end: 900 };
const BEDTIME = { days: [0, 1, 2, 3, 4, 5, 6], start: 1260, end: 420 };

describe("schedule windows in the family's zone", () => {
  it.each([
    ["Monday 12:00 London", SCHOOL, "2026-11-30T12:00:00Z", "Europe/London", true],
    ["Monday 15:00 London (the end is outside)", SCHOOL, "2026-11-30T15:00:00Z", "Europe/London", false],
    ["Sunday 12:00 London", SCHOOL, "2026-11-29T12:00:00Z", "Europe/London", false],
    ["Monday 12:00 UTC is 07:00 in New York", SCHOOL, "2026-11-30T12:00:00Z", "America/New_York", false],
    ["Saturday 06:00, a window that began on Friday night", BEDTIME, "2026-11-28T06:00:00Z", "Europe/London", true],
    ["the night of a spring-forward day: 01:30 UTC is 02:30 BST", BEDTIME, "2026-03-29T01:30:00Z", "Europe/London", true],
    ["an empty window never holds", { days: [0, 1, 2, 3, 4, 5, 6], start: 600, end: 600 }, "2026-11-30T10:00:00Z", "UTC", false],
  ])("%s", (_name, schedule, at, zone, inside) => {
    expect(isInside(schedule, new Date(at), zone)).toBe(inside);
  });

  it("keeps the schedule it was given (generic over the caller's type)", () => {
    const named = { ...SCHOOL, name: "School time" };
    expect(activeWindows([named], new Date("2026-11-30T12:00:00Z"), "UTC")[0].schedule.name).toBe("School time");
    expect(nextWindow([named], new Date("2026-11-30T16:00:00Z"), "UTC")?.start.toISOString()).toBe("2026-12-01T08:00:00.000Z");
  });
});
