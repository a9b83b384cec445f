import { describe, expect, it } from "vitest";
import { buildPolicy, normaliseMinutes, normaliseUrl, policyAspects, samePolicy, type PolicyInput } from "./build";

const base: PolicyInput = {
  sleepMode: false,
  protectionEnabled: true,
  allowFullDeviceAccess: false,
  apps: [
    {
      packageName: "com.kidsportal.kidsapp",
      category: "Others",
      disabled: true,
      disabledType: "Manually",
      enableDailyLimit: true,
      dailyLimitMinutes: 30,
      installed: true,
    },
    {
      packageName: "com.b.game",
      category: "GAME_PUZZLE",
      disabled: false,
      disabledType: null,
      enableDailyLimit: true,
      dailyLimitMinutes: 40,
      installed: true,
    },
    {
      packageName: "com.a.video",
      category: "VIDEO_PLAYERS",
      disabled: true,
      disabledType: "Overuse",
      enableDailyLimit: false,
      dailyLimitMinutes: 60,
      installed: true,
    },
    {
      packageName: "com.c.pending",
      category: "EDUCATION",
      disabled: false,
      disabledType: null,
      enableDailyLimit: false,
      dailyLimitMinutes: 0,
      installed: false,
    },
  ],
  categories: [
    { category: "GAME_PUZZLE", enabled: true, enableDailyLimit: true, dailyLimitMinutes: 60 },
    { category: "EDUCATION", enabled: false, enableDailyLimit: false, dailyLimitMinutes: 15 },
  ],
  globalDailyLimitMinutes: 180,
  blockedUrls: ["HTTPS://Example.com/", "example.com", "bad.test"],
  locationTracking: { enabled: true, intervalMinutes: 30 },
};

describe("normaliseMinutes", () => {
  it.each([
    [0, 0],
    [-5, 0],
    [1, 15],
    [15, 15],
    [16, 30],
    [44.9, 45],
    [Number.NaN, 0],
  ])("%s → %s", (input, want) => expect(normaliseMinutes(input)).toBe(want));
});

describe("normaliseUrl", () => {
  it.each([
    ["https://Example.com/", "example.com"],
    [" example.com/path/ ", "example.com/path"],
    ["ftp://x.test", "x.test"],
  ])("%s → %s", (input, want) => expect(normaliseUrl(input)).toBe(want));
});

describe("buildPolicy", () => {
  const cases: { name: string; input: Partial<PolicyInput>; check: (p: ReturnType<typeof buildPolicy>) => void }[] = [
    {
      name: "sleep mode off allows everything the other rules allow",
      input: {},
      check: (p) => expect(p.sleepMode).toEqual({ enabled: false, allowedPackages: [] }),
    },
    {
      name: "sleep mode on leaves only the kids app",
      input: { sleepMode: true },
      check: (p) => expect(p.sleepMode).toEqual({ enabled: true, allowedPackages: ["com.kidsportal.kidsapp"] }),
    },
    {
      name: "protection locks settings unless full access is allowed",
      input: {},
      check: (p) => expect(p.protection).toEqual({ kidsAppProtected: true, settingsLocked: true, allowFullDeviceAccess: false }),
    },
    {
      name: "full access lifts settings lock, app limits, disabled apps, category and global limits",
      input: { allowFullDeviceAccess: true },
      check: (p) => {
        expect(p.protection.settingsLocked).toBe(false);
        expect(p.apps.every((a) => !a.disabled && a.dailyLimitMinutes === null)).toBe(true);
        expect(p.limits.globalDailyLimitMinutes).toBeNull();
        expect(p.limits.categories.every((c) => c.enabled && c.dailyLimitMinutes === null)).toBe(true);
      },
    },
    {
      name: "apps are sorted, only installed ones, kids app never disabled nor limited",
      input: {},
      check: (p) => {
        expect(p.apps.map((a) => a.packageName)).toEqual(["com.a.video", "com.b.game", "com.kidsportal.kidsapp"]);
        const kids = p.apps.find((a) => a.packageName === "com.kidsportal.kidsapp")!;
        expect(kids).toMatchObject({ disabled: false, dailyLimitMinutes: null, installType: "FORCE_INSTALLED" });
        expect(p.apps[0]).toMatchObject({ disabled: false, disabledReason: null, dailyLimitMinutes: null });
        expect(p.apps[1]).toMatchObject({ disabled: false, dailyLimitMinutes: 45 });
      },
    },
    {
      name: "only the parent's own disables travel: a block the phone derived from usage (Overuse, Category Overuse, Global Daily Limit Reach, Cronjob) is re-derived by the phone each day",
      input: {
        apps: (["Manually", "Overuse", "Category Overuse", "Global Daily Limit Reach", "Cronjob", null] as const).map((t, i) => ({
          packageName: `com.app${i}`,
          category: "GAME_PUZZLE",
          disabled: true,
          disabledType: t,
          enableDailyLimit: false,
          dailyLimitMinutes: 0,
          installed: true,
        })),
      },
      check: (p) =>
        expect(p.apps.map((a) => [a.disabled, a.disabledReason])).toEqual([
          [true, "Manually"],
          [false, null],
          [false, null],
          [false, null],
          [false, null],
          [true, "Manually"],
        ]),
    },
    {
      name: "category limits: disabled limit is null, categories sorted",
      input: {},
      check: (p) =>
        expect(p.limits.categories).toEqual([
          { category: "EDUCATION", enabled: false, dailyLimitMinutes: null },
          { category: "GAME_PUZZLE", enabled: true, dailyLimitMinutes: 60 },
        ]),
    },
    {
      name: "global daily limit 0 means none",
      input: { globalDailyLimitMinutes: 0 },
      check: (p) => expect(p.limits.globalDailyLimitMinutes).toBeNull(),
    },
    { name: "global daily limit kept", input: {}, check: (p) => expect(p.limits.globalDailyLimitMinutes).toBe(180) },
    {
      name: "blocked URLs normalised, unique, sorted",
      input: {},
      check: (p) => expect(p.blockedUrls).toEqual(["bad.test", "example.com"]),
    },
    {
      name: "tracking off → interval 0",
      input: { locationTracking: { enabled: false, intervalMinutes: 45 } },
      check: (p) => expect(p.location).toEqual({ tracking: false, intervalMinutes: 0 }),
    },
    {
      name: "tracking on with 0 → default 15",
      input: { locationTracking: { enabled: true, intervalMinutes: 0 } },
      check: (p) => expect(p.location).toEqual({ tracking: true, intervalMinutes: 15 }),
    },
  ];
  it.each(cases)("$name", ({ input, check }) => check(buildPolicy({ ...base, ...input })));

  it("is pure: same input, same document; input order does not matter", () => {
    const a = buildPolicy(base);
    const b = buildPolicy({
      ...base,
      apps: [...base.apps].reverse(),
      categories: [...base.categories].reverse(),
      blockedUrls: [...base.blockedUrls].reverse(),
    });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it("aspects change independently", () => {
    const a = policyAspects(buildPolicy(base));
    const sleep = policyAspects(buildPolicy({ ...base, sleepMode: true }));
    const limit = policyAspects(buildPolicy({ ...base, globalDailyLimitMinutes: 60 }));
    expect([sleep.sleepMode !== a.sleepMode, sleep.protection === a.protection, sleep.limits === a.limits]).toEqual([true, true, true]);
    expect([limit.sleepMode === a.sleepMode, limit.protection === a.protection, limit.limits !== a.limits]).toEqual([true, true, true]);
  });
});

describe("buildPolicy: Private DNS (issue 54 item 4)", () => {
  it.each([
    ["the kid's filter hostname (lower case)", "AbcDefGhij0123456789.DNS.test", { hostname: "abcdefghij0123456789.dns.test" }],
    ["no hostname: the filter is off or the kid's id is revoked", null, undefined],
    ["absent from the input", undefined, undefined],
  ] as const)("%s", (_name, privateDnsHostname, want) => {
    const doc = buildPolicy({ ...base, ...(privateDnsHostname === undefined ? {} : { privateDnsHostname }) });
    expect(doc.privateDns).toEqual(want);
    // Without a hostname the document is as it was before the field existed: no new version for those phones.
    if (!want) expect(JSON.stringify(doc)).toBe(JSON.stringify(buildPolicy(base)));
    else expect("privateDns" in buildPolicy(base)).toBe(false);
  });

  it("a new hostname is a new policy; full device access does not lift it (the filter is the parent's, not a limit)", () => {
    const a = buildPolicy({ ...base, privateDnsHostname: "aaaaaaaaaaaaaaaaaaaa.dns.test" });
    const b = buildPolicy({ ...base, privateDnsHostname: "bbbbbbbbbbbbbbbbbbbb.dns.test" });
    expect(samePolicy(a, b)).toBe(false);
    expect(buildPolicy({ ...base, allowFullDeviceAccess: true, privateDnsHostname: "aaaaaaaaaaaaaaaaaaaa.dns.test" }).privateDns).toEqual({
      hostname: "aaaaaaaaaaaaaaaaaaaa.dns.test",
    });
  });
});
