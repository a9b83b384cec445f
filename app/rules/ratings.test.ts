import { describe, expect, it } from "vitest";
import { NOT_CERTIFIED, compactNumber, expertBadge, ratingTone, relativeTime } from "./ratings";

describe("kid average rating brackets (spec 2 §4)", () => {
  it.each([
    [5, "positive"],
    [3, "positive"],
    [2.99, "neutral"],
    [2, "neutral"],
    [1.99, "negative"],
    [1, "negative"],
    [0.5, "grey"],
    [0, "grey"],
    [null, "grey"],
    [Number.NaN, "grey"],
  ] as const)("%j is %s", (avg, tone) => expect(ratingTone(avg)).toBe(tone));
});

describe("compact numbers with one decimal", () => {
  it.each([
    [0, "0"],
    [999, "999"],
    [1000, "1K"],
    [1234, "1.2K"],
    [15_678, "15.7K"],
    [2_500_000, "2.5M"],
    [1_000_000_000, "1B"],
    [-1, "0"],
  ])("%j → %s", (n, out) => expect(compactNumber(n)).toBe(out));
});

describe("relative times", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it.each([
    ["2026-11-23T12:00:00Z", "just now"],
    ["2026-11-23T11:59:59Z", "1 second ago"],
    ["2026-11-23T11:59:30Z", "30 seconds ago"],
    ["2026-11-23T11:59:00Z", "1 minute ago"],
    ["2026-11-23T11:15:00Z", "45 minutes ago"],
    ["2026-11-23T09:00:00Z", "3 hours ago"],
    ["2026-11-22T12:00:00Z", "1 day ago"],
    ["2026-11-01T12:00:00Z", "22 days ago"],
    ["2026-09-01T12:00:00Z", "2 months ago"],
    ["2024-11-01T12:00:00Z", "2 years ago"],
    ["2026-11-24T12:00:00Z", "just now"],
  ])("%s → %s", (iso, out) => expect(relativeTime(iso, now)).toBe(out));
});

describe("expert badge colours (spec 2 §4)", () => {
  it.each([
    ["EXPERT_RECOMMENDATION", "green", "Expert Recommended"],
    ["PARENTAL_SUPERVISION", "orange", "Parental Supervision"],
    ["16+", "red", "16+"],
    [null, "grey", "Not Certified"],
    ["", "grey", "Not Certified"],
  ] as const)("%j is a %s badge", (value, tone, label) => {
    const b = expertBadge(value);
    expect(b.tone).toBe(tone);
    expect(b.label).toBe(label);
  });

  it("says so when an app is not certified", () => {
    expect(expertBadge(null).note).toBe(NOT_CERTIFIED);
    expect(NOT_CERTIFIED).toBe("This app has not been certified yet by our expert team.");
  });
});
