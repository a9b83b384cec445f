import { describe, expect, it } from "vitest";
import { ENABLE_REFUSED, checkLimit, enableRefusal, limitAfterSwitch, limitOnBlur, limitStep } from "./apps";

describe("daily limit switch (spec 2 §4)", () => {
  it.each([
    // [on, stored, result]
    [true, 0, 15],
    [true, null, 15],
    [true, 45, 45],
    [true, -30, 15],
    [false, 45, 0],
    [false, 0, 0],
  ] as const)("switch to %j with stored %j gives %j", (on, stored, out) => expect(limitAfterSwitch(on, stored)).toBe(out));
});

describe("stepper and blur", () => {
  it.each([
    [0, 1, 15],
    [0, -1, 0],
    [30, 1, 45],
    [30, -1, 15],
    [-45, 1, 15],
    [1440, 1, 1440],
  ] as const)("%j stepped by %j is %j", (v, d, out) => expect(limitStep(v, d)).toBe(out));

  it.each([
    ["31", 45],
    ["15", 15],
    ["1", 15],
    ["0", 0],
    ["1430", 1440],
    // Not whole minutes within a day: left as typed (null), for Save to answer with its message (issue 52).
    ["-20", null],
    ["-15", null],
    ["", null],
    ["abc", null],
    ["1e5", null],
    ["100000", null],
    ["1441", null],
  ] as const)("%j rounds up on blur to %j", (v, out) => expect(limitOnBlur(v)).toBe(out));
});

describe("limit validation (spec 2 §5)", () => {
  it.each<[string, boolean, unknown, ReturnType<typeof checkLimit>]>([
    ["app", false, "", { ok: true, minutes: 0 }],
    ["app", false, "20", { ok: true, minutes: 0 }],
    ["app", true, "", { ok: false, message: "Please enter time." }],
    ["app", true, "  ", { ok: false, message: "Please enter time." }],
    ["app", true, "20", { ok: false, message: "Please enter time multiple of 15." }],
    ["app", true, "30", { ok: true, minutes: 30 }],
    ["app", true, "-15", { ok: false, message: "Please enter time in positive." }],
    ["app", true, "1e5", { ok: false, message: "Please enter whole minutes from 0 to 1,440." }],
    ["app", true, "100000", { ok: false, message: "Please enter whole minutes from 0 to 1,440." }],
    ["app", true, "0", { ok: true, minutes: 0 }],
    ["app", true, "15abc", { ok: false, message: "Please enter whole minutes from 0 to 1,440." }],
    ["app", true, "1e300", { ok: false, message: "Please enter whole minutes from 0 to 1,440." }],
    ["app", true, "1455", { ok: false, message: "Please enter whole minutes from 0 to 1,440." }],
    ["category", true, "-15", { ok: false, message: "Please enter time in positive." }],
    ["category", true, "", { ok: false, message: "Please enter time." }],
    ["category", true, "25", { ok: false, message: "Please enter time multiple of 15." }],
    ["category", true, "60", { ok: true, minutes: 60 }],
    ["category", false, "-15", { ok: true, minutes: 0 }],
  ])("%s limit on=%j %j → %j", (kind, on, raw, out) => expect(checkLimit(kind as "app" | "category", on, raw)).toEqual(out));
});

describe("enabling an app or category that used up its limit (spec 2 §5)", () => {
  it.each([
    // [limit on, limit, used, refused]
    [true, 30, 30, true],
    [true, 30, 45, true],
    [true, 30, 29, false],
    [false, 30, 45, false],
    [true, 0, 45, false],
  ] as const)("limit on=%j %j min, used %j → refused %j", (on, limit, used, refused) => {
    expect(enableRefusal({ enableDailyLimit: on, dailyLimitMinutes: limit, usedMinutes: used })).toBe(refused ? ENABLE_REFUSED : null);
  });

  it("uses the spec's words", () => expect(ENABLE_REFUSED).toBe("Please increase daily limit time to enable this category."));
});
