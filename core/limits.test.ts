import { describe, expect, it } from "vitest";
import { extendStop } from "./limits";

const on = { disabled: false, disabledType: null };
const category = (c: Partial<{ enabled: boolean; enableDailyLimit: boolean; dailyLimitMinutes: number; usedMinutes: number }>) => ({
  enabled: true,
  enableDailyLimit: false,
  dailyLimitMinutes: 0,
  usedMinutes: 0,
  ...c,
});

describe("extendStop: when extra time would not let the app run", () => {
  it.each([
    ["an app that runs, no category row", { app: on, category: null }, null],
    ["an app that runs, its category enabled without a limit", { app: on, category: category({ usedMinutes: 500 }) }, null],
    ["the app turned off by the parent", { app: { disabled: true, disabledType: "Manually" }, category: null }, "app-disabled"],
    [
      "the app turned off (no reason stored: the parent's)",
      { app: { disabled: true, disabledType: null }, category: null },
      "app-disabled",
    ],
    // The app's own limit used up is what an extension lifts.
    ["the app blocked by its own limit", { app: { disabled: true, disabledType: "Overuse" }, category: null }, null],
    ["its category disabled", { app: on, category: category({ enabled: false }) }, "category-disabled"],
    [
      "its category's limit used up",
      { app: on, category: category({ enableDailyLimit: true, dailyLimitMinutes: 30, usedMinutes: 30 }) },
      "category-used-up",
    ],
    [
      "its category's limit not used up",
      { app: on, category: category({ enableDailyLimit: true, dailyLimitMinutes: 30, usedMinutes: 29 }) },
      null,
    ],
    [
      "a category limit of 0 is no limit",
      { app: on, category: category({ enableDailyLimit: true, dailyLimitMinutes: 0, usedMinutes: 9 }) },
      null,
    ],
    [
      "the app off and its category off: the app first",
      { app: { disabled: true, disabledType: "Manually" }, category: category({ enabled: false }) },
      "app-disabled",
    ],
  ] as const)("%s", (_n, input, want) => expect(extendStop(input)).toBe(want));
});
