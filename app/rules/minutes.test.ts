import { describe, expect, it } from "vitest";
import {
  blurMinutes,
  checkDailyLimit,
  formatMinutes,
  limitAfterToggle,
  limitProgress,
  roundUpToStep,
  stepMinutes,
  toMinutes,
  typedMinutes,
} from "./minutes";

describe("minutes", () => {
  it.each([
    [0, 0],
    [1, 15],
    [14, 15],
    [15, 15],
    [16, 30],
    [20, 30],
    [44.5, 45],
    [-5, 0],
    ["", 0],
    ["abc", 0],
    ["31", 45],
  ])("rounds %j up to %j on blur", (input, out) => expect(roundUpToStep(input)).toBe(out));

  // The stepper (issue 52): only whole minutes within a day are taken while typing or rounded on blur; anything
  // else stays as typed, so Save answers it instead of it quietly becoming 0 ("no limit") or 1,440 (24 hours).
  it.each([
    ["31", 31, 45],
    ["0", 0, 0],
    [" 15 ", 15, 15],
    ["1440", 1440, 1440],
    ["", null, null],
    ["-15", null, null],
    ["1e5", null, null],
    ["100000", null, null],
    ["1441", null, null],
    ["1.5", null, null],
  ] as const)("typed %j is %j, and %j after blur", (input, typed, blurred) => {
    expect(typedMinutes(input)).toBe(typed);
    expect(blurMinutes(input)).toBe(blurred);
  });

  it.each([
    [0, 1, 15],
    [0, -1, 0],
    [15, -1, 0],
    [10, -1, 0],
    [30, 1, 45],
    [-20, 1, 15],
    ["45", -1, 30],
  ] as const)("steps %j by %j to %j, never below 0", (v, d, out) => expect(stepMinutes(v, d)).toBe(out));

  it.each<[unknown, ReturnType<typeof checkDailyLimit>]>([
    [20, { ok: false, minutes: 0, message: "Please enter time multiple of 15." }],
    [7, { ok: false, minutes: 0, message: "Please enter time multiple of 15." }],
    [30, { ok: true, minutes: 30 }],
    [0, { ok: true, minutes: 0 }],
    ["", { ok: true, minutes: 0 }],
    ["1440", { ok: true, minutes: 1440 }],
    // Only whole minutes within a day (core/values.ts): the rest is refused, never stored.
    ...[-15, "-1", "22.5", "1.5", "15abc", "1.5e21", "1e300", 1.5e21, 1e300, "1455", "0x10", " 15 abc"].map(
      (v) =>
        [v, { ok: false, minutes: 0, message: "Please enter whole minutes from 0 to 1,440." }] as [
          unknown,
          ReturnType<typeof checkDailyLimit>,
        ],
    ),
  ])("daily limit %j → %j", (v, out) => expect(checkDailyLimit(v)).toEqual(out));

  it("toggle off → 0, on → 15; negative → 0", () => {
    expect(limitAfterToggle(false)).toBe(0);
    expect(limitAfterToggle(true)).toBe(15);
    expect(toMinutes(-3)).toBe(0);
    expect(toMinutes("12")).toBe(12);
  });

  it.each([
    [0, "0m"],
    [45, "45m"],
    [60, "1h"],
    [135, "2h 15m"],
    [605, "10h 05m"],
  ])("formats %j minutes as %j", (m, s) => expect(formatMinutes(m)).toBe(s));
});

describe("limit progress", () => {
  it.each([
    [10, 30, 33, false],
    [30, 30, 100, true],
    [45, 30, 100, true],
    [29, 30, 97, false],
    [50, 0, 0, false],
  ])("used %j of %j → %j%, red %j", (u, l, p, over) => expect(limitProgress(u, l)).toEqual({ percent: p, over }));
});
