import { describe, expect, it } from "vitest";
import { buildPolicy, type PolicyInput } from "./build";
import { PHONE_APP_PACKAGES, decide, nextChangeAt, type AppDecision, type UseInterval } from "./enforce";
import { NO_TIME_RULES, type PolicySchedule, type TimeRulesInput } from "./time-rules";

// The one decision over time rules (issue 21 item 7): weekday limits, windows across midnight, both DST
// changes in Europe/London, bonus time, session limits, always-allowed apps, several rules at once.
const KIDS = "com.kidsportal.kidsapp";
const PHONE = PHONE_APP_PACKAGES[0];
const app = (packageName: string, category: string, limit = 0) => ({
  packageName,
  category,
  disabled: false,
  disabledType: null,
  enableDailyLimit: limit > 0,
  dailyLimitMinutes: limit,
  installed: true,
});
const base: PolicyInput = {
  sleepMode: false,
  protectionEnabled: true,
  allowFullDeviceAccess: false,
  apps: [
    app(KIDS, "Others"),
    app(PHONE, "COMMUNICATION"),
    app("com.game", "GAME_PUZZLE", 30),
    app("com.game.b", "GAME_PUZZLE"),
    app("com.video", "VIDEO_PLAYERS"),
    app("com.school", "EDUCATION"),
  ],
  categories: [{ category: "GAME_PUZZLE", enabled: true, enableDailyLimit: true, dailyLimitMinutes: 60 }],
  globalDailyLimitMinutes: 0,
  blockedUrls: [],
  locationTracking: { enabled: false, intervalMinutes: 0 },
};
const sched = (name: string, start: string, end: string, extra: Partial<PolicySchedule> = {}): PolicySchedule => {
  const m = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  return {
    id: name.toLowerCase(),
    name,
    days: [0, 1, 2, 3, 4, 5, 6],
    start: m(start),
    end: m(end),
    blocks: { all: true, categories: [], apps: [] },
    ...extra,
  };
};
const BEDTIME = sched("Bedtime", "21:00", "07:00");

interface Case {
  name: string;
  rules?: Partial<TimeRulesInput>;
  input?: Partial<PolicyInput>;
  usage?: Record<string, number>;
  use?: [string, string, string][];
  now: string;
  want: Record<string, Partial<AppDecision> & { nextAt?: string; untilAt?: string }>;
}

function run(c: Case): Record<string, AppDecision> {
  const policy = buildPolicy({ ...base, ...c.input, timeRules: { ...NO_TIME_RULES, ...c.rules } });
  const recentUse: UseInterval[] = (c.use ?? []).map(([packageName, start, end]) => ({
    packageName,
    start: new Date(start),
    end: new Date(end),
  }));
  return Object.fromEntries(decide({ policy, usageToday: c.usage ?? {}, now: new Date(c.now), recentUse }).map((d) => [d.packageName, d]));
}

// 2026-11-23 is a Monday; 2026-11-28 a Saturday. London: GMT in winter, BST (UTC+1) from 2026-03-29 01:00Z to 2026-10-25 01:00Z.
const cases: Case[] = [
  // ---- weekday limits
  {
    name: "Monday's app limit (30) is reached at 30",
    rules: { weekdayLimits: [{ scope: "app", target: "com.game", minutes: [30, 30, 30, 30, 30, 60, 60] }] },
    usage: { "com.game": 40 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game": { blocked: true, reason: "Overuse" } },
  },
  {
    name: "Saturday's app limit (60) leaves 20 after 40",
    rules: { weekdayLimits: [{ scope: "app", target: "com.game", minutes: [30, 30, 30, 30, 30, 60, 60] }] },
    usage: { "com.game": 40 },
    now: "2026-11-28T15:00:00Z",
    want: { "com.game": { blocked: false, minutesLeft: 20, limitedBy: "app" } },
  },
  {
    name: "a weekday with 0 has no app limit",
    rules: { weekdayLimits: [{ scope: "app", target: "com.game", minutes: [30, 30, 30, 30, 30, 0, 0] }] },
    usage: { "com.game": 50 },
    now: "2026-11-29T15:00:00Z",
    want: { "com.game": { blocked: false, reason: null } },
  },
  {
    name: "the phone's Saturday limit differs from Monday's (Monday: reached)",
    input: { globalDailyLimitMinutes: 60 },
    rules: { weekdayLimits: [{ scope: "phone", target: "", minutes: [60, 60, 60, 60, 60, 120, 120] }] },
    usage: { "com.video": 90 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.video": { blocked: true, reason: "Global Daily Limit Reach" }, [PHONE]: { blocked: false } },
  },
  {
    name: "the phone's Saturday limit differs from Monday's (Saturday: 30 left)",
    input: { globalDailyLimitMinutes: 60 },
    rules: { weekdayLimits: [{ scope: "phone", target: "", minutes: [60, 60, 60, 60, 60, 120, 120] }] },
    usage: { "com.video": 90 },
    now: "2026-11-28T15:00:00Z",
    want: { "com.video": { blocked: false, minutesLeft: 30, limitedBy: "phone" } },
  },
  {
    name: "a category's weekday limit",
    rules: { weekdayLimits: [{ scope: "category", target: "GAME_PUZZLE", minutes: [15, 60, 60, 60, 60, 60, 60] }] },
    usage: { "com.game.b": 15 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game.b": { blocked: true, reason: "Category Overuse" } },
  },
  {
    name: "the weekday is the family's: Sunday 23:30 in New York is Monday in UTC",
    rules: { timeZone: "America/New_York", weekdayLimits: [{ scope: "app", target: "com.game", minutes: [15, 15, 15, 15, 15, 15, 60] }] },
    usage: { "com.game": 30 },
    now: "2026-11-30T04:30:00Z",
    want: { "com.game": { blocked: false, minutesLeft: 30 } },
  },
  // ---- windows across midnight
  {
    name: "before Bedtime: usable, the next change is 21:00",
    rules: { schedules: [BEDTIME] },
    now: "2026-11-23T20:59:00Z",
    want: { "com.video": { blocked: false, nextAt: "2026-11-23T21:00:00.000Z" } },
  },
  {
    name: "at 21:00 Bedtime blocks everything until 07:00 (Cronjob)",
    rules: { schedules: [BEDTIME] },
    now: "2026-11-23T21:00:00Z",
    want: {
      "com.video": { blocked: true, reason: "Cronjob", scheduleName: "Bedtime", untilAt: "2026-11-24T07:00:00.000Z" },
      "com.game": { reason: "Cronjob" },
    },
  },
  {
    name: "after midnight Bedtime still blocks until 07:00",
    rules: { schedules: [BEDTIME] },
    now: "2026-11-24T03:00:00Z",
    want: { "com.video": { blocked: true, reason: "Cronjob", untilAt: "2026-11-24T07:00:00.000Z" } },
  },
  {
    name: "at 07:00 Bedtime lifts",
    rules: { schedules: [BEDTIME] },
    now: "2026-11-24T07:00:00Z",
    want: { "com.video": { blocked: false, reason: null } },
  },
  {
    name: "a window chosen for Friday runs into Saturday morning",
    rules: { schedules: [sched("Bedtime", "21:00", "07:00", { days: [4] })] },
    now: "2026-11-28T03:00:00Z",
    want: { "com.video": { blocked: true, reason: "Cronjob" } },
  },
  {
    name: "…but not Saturday night",
    rules: { schedules: [sched("Bedtime", "21:00", "07:00", { days: [4] })] },
    now: "2026-11-28T21:30:00Z",
    want: { "com.video": { blocked: false } },
  },
  {
    name: "School time blocks chosen categories and apps only",
    rules: {
      schedules: [
        sched("School time", "08:30", "15:00", {
          days: [0, 1, 2, 3, 4],
          blocks: { all: false, categories: ["GAME_PUZZLE"], apps: ["com.video"] },
        }),
      ],
    },
    now: "2026-11-23T10:00:00Z",
    want: {
      "com.game": { reason: "Cronjob" },
      "com.game.b": { reason: "Cronjob" },
      "com.video": { reason: "Cronjob", untilAt: "2026-11-23T15:00:00.000Z" },
      "com.school": { blocked: false },
    },
  },
  {
    name: "windows follow the family's zone (Bedtime in London in summer is 20:00–06:00 UTC)",
    rules: { timeZone: "Europe/London", schedules: [BEDTIME] },
    now: "2026-07-01T20:30:00Z",
    want: { "com.video": { blocked: true, untilAt: "2026-07-02T06:00:00.000Z" } },
  },
  // ---- both DST changes in Europe/London
  {
    name: "spring forward: 01:00–03:00 starts when the clocks jump (01:00 UTC)…",
    rules: { timeZone: "Europe/London", schedules: [sched("Night", "01:00", "03:00")] },
    now: "2026-03-29T00:59:00Z",
    want: { "com.video": { blocked: false, nextAt: "2026-03-29T01:00:00.000Z" } },
  },
  {
    name: "…and lasts one hour (until 03:00 BST = 02:00 UTC)",
    rules: { timeZone: "Europe/London", schedules: [sched("Night", "01:00", "03:00")] },
    now: "2026-03-29T01:00:00Z",
    want: { "com.video": { blocked: true, untilAt: "2026-03-29T02:00:00.000Z" } },
  },
  {
    name: "fall back: 23:00–07:00 starts 23:00 BST (22:00 UTC)…",
    rules: { timeZone: "Europe/London", schedules: [sched("Bedtime", "23:00", "07:00", { days: [5] })] },
    now: "2026-10-24T21:59:00Z",
    want: { "com.video": { blocked: false, nextAt: "2026-10-24T22:00:00.000Z" } },
  },
  {
    name: "…and lasts nine hours (until 07:00 GMT)",
    rules: { timeZone: "Europe/London", schedules: [sched("Bedtime", "23:00", "07:00", { days: [5] })] },
    now: "2026-10-25T01:30:00Z",
    want: { "com.video": { blocked: true, untilAt: "2026-10-25T07:00:00.000Z" } },
  },
  {
    name: "the day's limits end at the family's midnight (London summer: 23:00 UTC)",
    rules: { timeZone: "Europe/London" },
    usage: { "com.game": 30 },
    now: "2026-07-01T15:00:00Z",
    want: { "com.game": { reason: "Overuse", untilAt: "2026-07-01T23:00:00.000Z" } },
  },
  // ---- bonus time
  {
    name: "30 bonus minutes today raise the app's limit",
    rules: { bonusDay: "2026-11-23", bonus: [{ scope: "app", target: "com.game", minutes: 30 }] },
    usage: { "com.game": 30 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game": { blocked: false, minutesLeft: 30 } },
  },
  {
    name: "yesterday's bonus has ended",
    rules: { bonusDay: "2026-11-22", bonus: [{ scope: "app", target: "com.game", minutes: 30 }] },
    usage: { "com.game": 30 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game": { blocked: true, reason: "Overuse" } },
  },
  {
    name: "bonus for the whole phone",
    input: { globalDailyLimitMinutes: 60 },
    rules: { bonusDay: "2026-11-23", bonus: [{ scope: "phone", target: "", minutes: 30 }] },
    usage: { "com.video": 75 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.video": { blocked: false, minutesLeft: 15, limitedBy: "phone" } },
  },
  {
    name: "bonus for a category",
    rules: { bonusDay: "2026-11-23", bonus: [{ scope: "category", target: "GAME_PUZZLE", minutes: 15 }] },
    usage: { "com.game.b": 60 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game.b": { blocked: false, minutesLeft: 15, limitedBy: "category" } },
  },
  // ---- session limits
  {
    name: "30 minutes in a row: a 10-minute break",
    rules: { sessions: [{ scope: "app", target: "com.game", minutes: 30, breakMinutes: 10 }] },
    input: { apps: [app("com.game", "GAME_PUZZLE")] },
    use: [["com.game", "2026-11-23T16:00:00Z", "2026-11-23T16:30:00Z"]],
    now: "2026-11-23T16:30:00Z",
    want: { "com.game": { blocked: true, reason: "Session Break", untilAt: "2026-11-23T16:40:00.000Z" } },
  },
  {
    name: "after the break it is usable again",
    rules: { sessions: [{ scope: "app", target: "com.game", minutes: 30, breakMinutes: 10 }] },
    input: { apps: [app("com.game", "GAME_PUZZLE")] },
    use: [["com.game", "2026-11-23T16:00:00Z", "2026-11-23T16:30:00Z"]],
    now: "2026-11-23T16:40:00Z",
    want: { "com.game": { blocked: false, sessionMinutesLeft: 30 } },
  },
  {
    name: "a pause shorter than the break does not end the run",
    rules: { sessions: [{ scope: "app", target: "com.game", minutes: 30, breakMinutes: 10 }] },
    input: { apps: [app("com.game", "GAME_PUZZLE")] },
    use: [
      ["com.game", "2026-11-23T16:00:00Z", "2026-11-23T16:20:00Z"],
      ["com.game", "2026-11-23T16:25:00Z", "2026-11-23T16:35:00Z"],
    ],
    now: "2026-11-23T16:35:00Z",
    want: { "com.game": { reason: "Session Break", untilAt: "2026-11-23T16:45:00.000Z" } },
  },
  {
    name: "a category's session counts its apps together",
    rules: { sessions: [{ scope: "category", target: "GAME_PUZZLE", minutes: 30, breakMinutes: 15 }] },
    input: { apps: [app("com.game", "GAME_PUZZLE"), app("com.game.b", "GAME_PUZZLE")] },
    use: [
      ["com.game", "2026-11-23T16:00:00Z", "2026-11-23T16:20:00Z"],
      ["com.game.b", "2026-11-23T16:20:00Z", "2026-11-23T16:30:00Z"],
    ],
    now: "2026-11-23T16:30:00Z",
    want: { "com.game.b": { reason: "Session Break", untilAt: "2026-11-23T16:45:00.000Z" } },
  },
  {
    name: "20 of 30 minutes used in a row leaves 10",
    rules: { sessions: [{ scope: "app", target: "com.game", minutes: 30, breakMinutes: 10 }] },
    input: { apps: [app("com.game", "GAME_PUZZLE")] },
    use: [["com.game", "2026-11-23T16:00:00Z", "2026-11-23T16:20:00Z"]],
    now: "2026-11-23T16:20:00Z",
    want: { "com.game": { blocked: false, sessionMinutesLeft: 10 } },
  },
  // ---- always allowed
  {
    name: "Bedtime leaves the kids app, the phone app and always-allowed apps usable",
    rules: { schedules: [BEDTIME], alwaysAllowed: ["com.school"] },
    now: "2026-11-23T22:00:00Z",
    want: {
      [KIDS]: { blocked: false },
      [PHONE]: { blocked: false },
      "com.school": { blocked: false, minutesLeft: null },
      "com.video": { blocked: true },
    },
  },
  {
    name: "an always-allowed app ignores its limits and the phone's",
    input: { globalDailyLimitMinutes: 60 },
    rules: { alwaysAllowed: ["com.game"] },
    usage: { "com.game": 90, "com.video": 60 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game": { blocked: false }, "com.video": { reason: "Global Daily Limit Reach" } },
  },
  {
    name: "an always-allowed app's use does not count towards the phone's limit",
    input: { globalDailyLimitMinutes: 60 },
    rules: { alwaysAllowed: ["com.school"] },
    usage: { "com.school": 90, "com.video": 30 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.video": { blocked: false, minutesLeft: 30 } },
  },
  // ---- several rules at once: the earliest end wins the "until"
  {
    name: "two windows: the one ending first is shown, the next one follows",
    rules: { schedules: [sched("Homework", "16:00", "22:00"), BEDTIME] },
    now: "2026-11-23T21:30:00Z",
    want: {
      "com.video": {
        reason: "Cronjob",
        scheduleName: "Homework",
        untilAt: "2026-11-23T22:00:00.000Z",
        nextChange: { at: new Date("2026-11-23T22:00:00Z"), blocked: true, reason: "Cronjob", scheduleName: "Bedtime" },
      },
    },
  },
  {
    name: "Overuse ends at midnight, before Bedtime: Overuse shown, Bedtime next",
    rules: { schedules: [BEDTIME] },
    usage: { "com.game": 30 },
    now: "2026-11-23T23:00:00Z",
    want: {
      "com.game": {
        reason: "Overuse",
        untilAt: "2026-11-24T00:00:00.000Z",
        nextChange: { at: new Date("2026-11-24T00:00:00Z"), blocked: true, reason: "Cronjob", scheduleName: "Bedtime" },
      },
    },
  },
  {
    name: "a break ending before the window ends is shown first",
    rules: {
      schedules: [sched("Homework", "16:00", "18:00")],
      sessions: [{ scope: "app", target: "com.video", minutes: 30, breakMinutes: 10 }],
    },
    use: [["com.video", "2026-11-23T15:30:00Z", "2026-11-23T16:00:00Z"]],
    now: "2026-11-23T16:00:00Z",
    want: { "com.video": { reason: "Session Break", untilAt: "2026-11-23T16:10:00.000Z" } },
  },
  {
    name: "the parent's own block has no end and wins",
    input: { apps: [{ ...app("com.video", "VIDEO_PLAYERS"), disabled: true, disabledType: "Manually" }] },
    rules: { schedules: [BEDTIME] },
    now: "2026-11-23T22:00:00Z",
    want: { "com.video": { reason: "Manually", until: null, nextChange: null } },
  },
  {
    name: "minutes left: the tightest of app, category and phone",
    input: { globalDailyLimitMinutes: 120 },
    usage: { "com.game": 10, "com.game.b": 40 },
    now: "2026-11-23T15:00:00Z",
    want: { "com.game": { minutesLeft: 10, limitedBy: "category" } },
  },
  {
    name: "full device access lifts schedules and sessions",
    input: { allowFullDeviceAccess: true },
    rules: { schedules: [BEDTIME] },
    now: "2026-11-23T22:00:00Z",
    want: { "com.video": { blocked: false, nextChange: null } },
  },
];

describe("the decision over time rules", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_n, c) => {
    const got = run(c);
    for (const [pkg, want] of Object.entries(c.want)) {
      const { nextAt, untilAt, ...rest } = want;
      expect(got[pkg], pkg).toMatchObject(rest);
      if (untilAt) expect(got[pkg].until?.toISOString(), `${pkg} until`).toBe(untilAt);
      if (nextAt) expect(got[pkg].nextChange?.at.toISOString(), `${pkg} next change`).toBe(nextAt);
    }
  });

  it("the phone's next time-driven change: a schedule's start, else the family's midnight", () => {
    const policy = buildPolicy({ ...base, timeRules: { ...NO_TIME_RULES, schedules: [BEDTIME] } });
    const at = (now: string) =>
      nextChangeAt(decide({ policy, usageToday: {}, now: new Date(now) }), { policy, now: new Date(now) }).toISOString();
    expect(at("2026-11-23T15:00:00Z")).toBe("2026-11-23T21:00:00.000Z");
    expect(at("2026-11-23T22:00:00Z")).toBe("2026-11-24T00:00:00.000Z");
    expect(at("2026-11-24T01:00:00Z")).toBe("2026-11-24T07:00:00.000Z");
  });
});
