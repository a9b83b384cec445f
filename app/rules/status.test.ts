import { describe, expect, it } from "vitest";
import { ackColour, batteryIcon } from "./status";

describe("icons, colours, badges", () => {
  it.each([
    [100, "full"],
    [81, "full"],
    [80, "half"],
    [20, "half"],
    [19, "low"],
    [0, "low"],
    [null, "unknown"],
  ])("battery %j → %j", (p, icon) => expect(batteryIcon(p)).toBe(icon));

  it.each([
    [true, true, "green"],
    [true, false, "warning"],
    [false, false, "warning"],
    [false, true, "off"],
  ])("enabled %j, acknowledged %j → %j", (e, a, c) => expect(ackColour(e, a)).toBe(c));

});
