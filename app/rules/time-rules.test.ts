import { describe, expect, it } from "vitest";
import { daysText, explainDecision, untilText, type DecisionLike } from "./time-rules";

const LONDON = "Europe/London";
// Monday 23 November 2026, 22:30 in London (UTC in winter).
const NOW = new Date("2026-11-23T22:30:00Z");
const free: DecisionLike = { blocked: false, reason: null, until: null, scheduleName: null, minutesLeft: null, nextChange: null };

describe("what the portal says about an app", () => {
  it.each<[string, DecisionLike, string | null]>([
    ["no rule", free, null],
    ["minutes left", { ...free, minutesLeft: 25 }, "25 minutes left today"],
    ["one minute left", { ...free, minutesLeft: 1 }, "1 minute left today"],
    [
      "bedtime into tomorrow",
      { ...free, blocked: true, reason: "Cronjob", scheduleName: "Bedtime", until: "2026-11-24T07:00:00Z" },
      "Blocked by Bedtime until 07:00",
    ],
    ["a break", { ...free, blocked: true, reason: "Session Break", until: "2026-11-23T22:40:00Z" }, "On a break until about 22:40"],
    ["app limit", { ...free, blocked: true, reason: "Overuse", until: "2026-11-24T00:00:00Z" }, "Today's time is used up"],
    [
      "category limit",
      { ...free, blocked: true, reason: "Category Overuse", until: "2026-11-24T00:00:00Z" },
      "The category's time is used up today",
    ],
    [
      "phone limit",
      { ...free, blocked: true, reason: "Global Daily Limit Reach", until: "2026-11-24T00:00:00Z" },
      "The phone's time is used up today",
    ],
    ["by hand", { ...free, blocked: true, reason: "Manually" }, "Turned off by a parent"],
    [
      "a schedule later today",
      { ...free, nextChange: { at: "2026-11-23T23:00:00Z", blocked: true, reason: "Cronjob", scheduleName: "Bedtime" } },
      "Bedtime starts at 23:00",
    ],
    [
      "a schedule tomorrow is not mentioned",
      { ...free, nextChange: { at: "2026-11-24T08:30:00Z", blocked: true, reason: "Cronjob", scheduleName: "School time" } },
      null,
    ],
  ])("%s", (_name, d, text) => expect(explainDecision(d, LONDON, NOW)?.text ?? null).toBe(text));

  it("reads the time on the family's wall clock (summer time in London)", () => {
    const summer = new Date("2026-07-01T19:00:00Z");
    expect(
      explainDecision({ ...free, blocked: true, reason: "Cronjob", scheduleName: "Bedtime", until: "2026-07-02T06:00:00Z" }, LONDON, summer)
        ?.text,
    ).toBe("Blocked by Bedtime until 07:00");
  });

  it("names the weekday when the block ends after tomorrow", () => {
    expect(untilText("2026-11-27T07:00:00Z", NOW, LONDON)).toBe("Friday 07:00");
    expect(untilText("2026-11-24T07:00:00Z", NOW, LONDON)).toBe("07:00");
  });
});

describe("a schedule's days", () => {
  it.each<[number[], string]>([
    [[0, 1, 2, 3, 4, 5, 6], "Every day"],
    [[0, 1, 2, 3, 4], "Monday to Friday"],
    [[5, 6], "Saturday and Sunday"],
    [[2, 0], "Monday and Wednesday"],
    [[0, 2, 4], "Monday, Wednesday, Friday"],
  ])("%j → %s", (days, text) => expect(daysText(days)).toBe(text));
});
