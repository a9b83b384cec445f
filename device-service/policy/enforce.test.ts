import { describe, expect, it } from "vitest";
import { buildPolicy, type PolicyInput } from "./build";
import { PHONE_APP_PACKAGES, blockedApps, decide, type BlockReason } from "./enforce";

const KIDS = "com.kidsportal.kidsapp";
const app = (packageName: string, category: string, extra: Partial<PolicyInput["apps"][number]> = {}) => ({
  packageName,
  category,
  disabled: false,
  disabledType: null,
  enableDailyLimit: false,
  dailyLimitMinutes: 0,
  installed: true,
  ...extra,
});

const base: PolicyInput = {
  sleepMode: false,
  protectionEnabled: true,
  allowFullDeviceAccess: false,
  apps: [
    app(KIDS, "Others"),
    app(PHONE_APP_PACKAGES[0], "COMMUNICATION"),
    app("com.game.a", "GAME_PUZZLE", { enableDailyLimit: true, dailyLimitMinutes: 30 }),
    app("com.game.b", "GAME_PUZZLE"),
    app("com.video", "VIDEO_PLAYERS"),
    app("com.manual", "EDUCATION", { disabled: true, disabledType: "Manually" }),
  ],
  categories: [{ category: "GAME_PUZZLE", enabled: true, enableDailyLimit: true, dailyLimitMinutes: 60 }],
  globalDailyLimitMinutes: 0,
  blockedUrls: [],
  locationTracking: { enabled: false, intervalMinutes: 0 },
};

const NOW = new Date("2026-11-23T15:00:00Z");

function run(input: Partial<PolicyInput>, usage: Record<string, number>): Record<string, BlockReason> {
  return Object.fromEntries(blockedApps(decide({ policy: buildPolicy({ ...base, ...input }), usageToday: usage, now: NOW })));
}

describe("the enforcement decision", () => {
  it.each<[string, Partial<PolicyInput>, Record<string, number>, Record<string, BlockReason>]>([
    ["nothing used: only the manual block", {}, {}, { "com.manual": "Manually" }],
    ["under the app limit", {}, { "com.game.a": 29 }, { "com.manual": "Manually" }],
    ["at the app limit: Overuse", {}, { "com.game.a": 30 }, { "com.game.a": "Overuse", "com.manual": "Manually" }],
    [
      "the category's apps together reach its limit: every app in it stops (the app's own limit first)",
      {},
      { "com.game.a": 35, "com.game.b": 25 },
      { "com.game.a": "Overuse", "com.game.b": "Category Overuse", "com.manual": "Manually" },
    ],
    [
      "a disabled category stops its apps",
      { categories: [{ category: "VIDEO_PLAYERS", enabled: false, enableDailyLimit: false, dailyLimitMinutes: 0 }] },
      {},
      { "com.video": "Manually", "com.manual": "Manually" },
    ],
    [
      "the global limit stops everything but the kids app and the phone app",
      { globalDailyLimitMinutes: 60 },
      { "com.video": 40, "com.game.b": 20, [KIDS]: 5 },
      {
        "com.game.a": "Global Daily Limit Reach",
        "com.game.b": "Global Daily Limit Reach",
        "com.video": "Global Daily Limit Reach",
        "com.manual": "Manually",
      },
    ],
    ["under the global limit", { globalDailyLimitMinutes: 60 }, { "com.video": 40 }, { "com.manual": "Manually" }],
    [
      "the kids app's own use does not count towards the global limit",
      { globalDailyLimitMinutes: 60 },
      { "com.video": 40, [KIDS]: 30 },
      { "com.manual": "Manually" },
    ],
    [
      "full device access lifts every block",
      { allowFullDeviceAccess: true, globalDailyLimitMinutes: 15 },
      { "com.game.a": 90, "com.video": 90 },
      {},
    ],
  ])("%s", (_name, input, usage, want) => expect(run(input, usage)).toEqual(want));

  it("gives every app of the policy a decision, blocked or not, with the minutes left", () => {
    const d = decide({ policy: buildPolicy(base), usageToday: { "com.game.a": 10 }, now: NOW });
    expect(d.map((x) => x.packageName).sort()).toEqual(
      [PHONE_APP_PACKAGES[0], "com.game.a", "com.game.b", KIDS, "com.manual", "com.video"].sort(),
    );
    expect(d.find((x) => x.packageName === "com.game.a")).toMatchObject({ blocked: false, reason: null, minutesLeft: 20 });
    expect(d.find((x) => x.packageName === "com.video")).toMatchObject({ blocked: false, minutesLeft: null });
  });

  it("the kids app is never blocked; the phone app only by hand", () => {
    const d = decide({
      policy: {
        ...buildPolicy({ ...base, globalDailyLimitMinutes: 15 }),
        apps: buildPolicy(base).apps.map((a) => ({ ...a, disabled: true, disabledReason: "Manually" })),
      },
      usageToday: { "com.video": 100 },
      now: NOW,
    });
    expect(d.filter((x) => !x.blocked).map((x) => x.packageName)).toEqual([KIDS]);
    expect(d.find((x) => x.packageName === PHONE_APP_PACKAGES[0])?.reason).toBe("Manually");
  });
});
