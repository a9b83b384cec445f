import { describe, expect, it } from "vitest";
import { kidAge, screenTimeRecommendation } from "./recommendation";

describe("age and recommendation (spec 1 §9)", () => {
  const today = new Date("2026-06-15T10:00:00Z");
  it.each([
    [6, 2014, 12],
    [7, 2014, 11],
    [1, 2026, 0],
    [12, 2019, 6],
  ])("born %j/%j is %j on 2026-06-15", (m, y, age) => expect(kidAge(m, y, today)).toBe(age));

  it.each([
    [0, "under-2"],
    [1, "under-2"],
    [2, "2-to-4"],
    [3, "2-to-4"],
    [4, "4-to-8"],
    [7, "4-to-8"],
    [8, null],
    [9, "9-to-10"],
    [10, "10-plus"],
    [15, "10-plus"],
  ])("age %j → %j", (age, bracket) => expect(screenTimeRecommendation(age)?.bracket ?? null).toBe(bracket));

  it("gives one hour a week per year of age as media vouchers from 10", () => {
    expect(screenTimeRecommendation(12)).toMatchObject({ weeklyHours: 12, voucherTemplate: true });
    expect(screenTimeRecommendation(9)?.voucherTemplate).toBeUndefined();
    expect(screenTimeRecommendation(3)?.text).toContain("5 to 10 minutes");
    expect(screenTimeRecommendation(5)?.text).toContain("30 to 60 minutes");
    expect(screenTimeRecommendation(1)?.text).toMatch(/avoid screens/i);
  });
});
