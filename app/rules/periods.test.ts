import { describe, expect, it } from "vitest";
import { resolvePeriod } from "./periods";

describe("day and week navigation", () => {
  const now = new Date("2026-11-21T15:00:00Z"); // a Saturday
  it("defaults to today, steps back 24 hours and never past today", () => {
    const p = resolvePeriod({}, now);
    expect(p).toMatchObject({
      filter: "day",
      date: "2026-11-21",
      from: "2026-11-21",
      to: "2026-11-22",
      label: "Today",
      prev: { date: "2026-11-20" },
      next: null,
    });
    const back = resolvePeriod({ date: "2026-11-20" }, now);
    expect(back.next).toEqual({ date: "2026-11-21" });
    expect(back.label).toBe("Fri, Nov 20, 2026");
    expect(resolvePeriod({ date: "2026-12-25" }, now).date).toBe("2026-11-21");
    expect(resolvePeriod({ date: "2026-02-30" }, now).date).toBe("2026-11-21");
    expect(resolvePeriod({ date: "2026-03-01" }, now).prev).toEqual({ date: "2026-02-28" });
  });
  it("toggles This Week and Previous Week (Monday to Sunday)", () => {
    const cur = resolvePeriod({ filter: "week" }, now);
    expect(cur).toMatchObject({
      label: "This Week, Nov 16 – Nov 22",
      from: "2026-11-16",
      to: "2026-11-23",
      days: 7,
      prev: { week: "previous" },
      next: null,
    });
    const prev = resolvePeriod({ filter: "week", week: "previous" }, now);
    expect(prev).toMatchObject({
      label: "Previous Week, Nov 9 – Nov 15",
      from: "2026-11-09",
      to: "2026-11-16",
      prev: null,
      next: { week: "current" },
    });
    expect(resolvePeriod({ filter: "bogus", week: "x" }, now).filter).toBe("day");
    // A week across two months and two years carries its dates too.
    expect(resolvePeriod({ filter: "week" }, new Date("2027-01-02T10:00:00Z")).label).toBe("This Week, Dec 28, 2026 – Jan 3, 2027");
  });
});
