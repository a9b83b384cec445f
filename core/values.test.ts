import { describe, expect, it } from "vitest";
import { z } from "zod";
import { kidName, minutes, minutesStep, minutesText, parseMinutesText, serialNumber, validationMessage } from "./values";

describe("core value schemas", () => {
  it.each([
    ["0", 0],
    ["15", 15],
    [" 1440 ", 1440],
    ["", null],
    [30, 30],
  ] as const)("reads minutes %j as %j", (raw, out) => expect(parseMinutesText(raw)).toEqual({ ok: true, minutes: out }));

  it.each(["1.5e21", "1e300", "15abc", "1.5", "-1", "1441", "0x10", "Infinity", "NaN", 1.5e21, 1e300, 1.5, -1, Number.NaN, "１５"])(
    "refuses %j minutes",
    (raw) => {
      expect(parseMinutesText(raw)).toEqual({ ok: false, message: "Please enter whole minutes from 0 to 1,440." });
      if (typeof raw === "number") expect(minutes.safeParse(raw).success).toBe(false);
      else expect(minutesText.safeParse(raw).success).toBe(false);
    },
  );

  it("daily limits are multiples of 15, with the spec's words", () => {
    expect(minutesStep.safeParse(45).success).toBe(true);
    const r = minutesStep.safeParse(20);
    expect(r.success ? null : validationMessage(r.error)).toBe("Please enter time multiple of 15.");
  });

  it("kid names: trimmed, 1..50 characters", () => {
    expect(kidName.parse("  Mia  ")).toBe("Mia");
    expect(kidName.safeParse("M".repeat(50)).success).toBe(true);
    const r = kidName.safeParse("M".repeat(55));
    expect(r.success ? null : validationMessage(r.error)).toBe("The name must be 50 characters or fewer.");
    const blank = kidName.safeParse("   ");
    expect(blank.success ? null : validationMessage(blank.error)).toBe("Please enter the kid's name.");
  });

  it.each(["DEMO-MIA-0001", "R58N12.ab_c"])("accepts serial number %j", (s) => expect(serialNumber.safeParse(s).success).toBe(true));
  it.each(["ab", "x".repeat(65), "has space", "../etc", 42])("refuses serial number %j", (s) =>
    expect(serialNumber.safeParse(s).success).toBe(false),
  );

  it("a zod default message becomes 'Please check <the field>.', never JSON", () => {
    const r = z.object({ profileId: z.string(), serialNumber: z.string() }).safeParse({ profileId: 1 });
    expect(r.success ? null : validationMessage(r.error)).toBe("Please check the kid.");
    const nested = z.object({ settings: z.object({ dailyLimitTime: z.number() }) }).safeParse({ settings: { dailyLimitTime: "x" } });
    expect(nested.success ? null : validationMessage(nested.error)).toBe("Please check daily limit time.");
  });
});
