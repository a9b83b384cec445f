import { describe, expect, it } from "vitest";
import { buildPolicy, type PolicyInput } from "../policy/build";
import { NO_TIME_RULES } from "../policy/time-rules";
import { dueWarnings, nextScheduleWarningAt } from "./warnings";

// Warnings the phone shows the kid (issue 21 item 5): 5 and 1 minutes before an app, a category or the whole
// phone runs out, and before a schedule starts.
const app = (packageName: string, category: string, limit = 0) => ({
  packageName,
  category,
  disabled: false,
  disabledType: null,
  enableDailyLimit: limit > 0,
  dailyLimitMinutes: limit,
  installed: true,
});
const policy = buildPolicy({
  sleepMode: false,
  protectionEnabled: true,
  allowFullDeviceAccess: false,
  apps: [app("com.kidsportal.kidsapp", "Others"), app("com.game", "GAME_PUZZLE", 30), app("com.video", "VIDEO_PLAYERS")],
  categories: [{ category: "VIDEO_PLAYERS", enabled: true, enableDailyLimit: true, dailyLimitMinutes: 60 }],
  globalDailyLimitMinutes: 120,
  blockedUrls: [],
  locationTracking: { enabled: false, intervalMinutes: 0 },
  timeRules: {
    ...NO_TIME_RULES,
    schedules: [
      {
        id: "bed",
        name: "Bedtime",
        days: [0, 1, 2, 3, 4, 5, 6],
        start: 21 * 60,
        end: 7 * 60,
        blocks: { all: true, categories: [], apps: [] },
      },
    ],
  },
} satisfies PolicyInput);
const at = (iso: string, usage: Record<string, number>) =>
  dueWarnings(policy, usage, new Date(iso)).map(({ kind, target, minutesBefore }) => [kind, target, minutesBefore]);

describe("warnings due", () => {
  it.each<[string, string, Record<string, number>, (string | number)[][]]>([
    ["nothing close", "2026-11-23T12:00:00Z", { "com.game": 10 }, []],
    ["an app with 5 minutes left", "2026-11-23T12:00:00Z", { "com.game": 25 }, [["app", "com.game", 5]]],
    ["an app with 1 minute left", "2026-11-23T12:00:00Z", { "com.game": 29 }, [["app", "com.game", 1]]],
    ["an app with none left: blocked, no warning", "2026-11-23T12:00:00Z", { "com.game": 30 }, []],
    ["a category with 5 minutes left", "2026-11-23T12:00:00Z", { "com.video": 55 }, [["category", "VIDEO_PLAYERS", 5]]],
    ["a schedule 5 minutes away", "2026-11-23T20:55:00Z", {}, [["schedule", "bed", 5]]],
    ["a schedule 1 minute away", "2026-11-23T20:59:00Z", {}, [["schedule", "bed", 1]]],
  ])("%s", (_n, now, usage, want) => expect(at(now, usage)).toEqual(want));

  it("the whole phone runs out: 115 of 120 minutes used", () => {
    const p = { ...policy, limits: { ...policy.limits, categories: [] } };
    const got = dueWarnings(
      { ...p, apps: p.apps.map((a) => ({ ...a, dailyLimitMinutes: null })) },
      { "com.video": 115 },
      new Date("2026-11-23T12:00:00Z"),
    );
    expect(got.map((w) => [w.kind, w.minutesBefore])).toEqual([["phone", 5]]);
  });

  it("the next schedule warning is 5, then 1 minute before the start", () => {
    expect(nextScheduleWarningAt(policy, new Date("2026-11-23T12:00:00Z"))?.toISOString()).toBe("2026-11-23T20:55:00.000Z");
    expect(nextScheduleWarningAt(policy, new Date("2026-11-23T20:55:00Z"))?.toISOString()).toBe("2026-11-23T20:59:00.000Z");
  });
});
