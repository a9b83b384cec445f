import { describe, expect, it } from "vitest";
import { ackColour, batteryIcon, noJsRefreshUrl } from "./status";

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

describe("the no-JavaScript self-refresh keeps the section (issue 11)", () => {
  it.each([
    ["/kids-device", "?profileId=k1", null, "/kids-device?profileId=k1"],
    ["/kids-device", "?profileId=k1", "controls", "/kids-device?profileId=k1&refreshed=1#controls"],
    ["/kids-device", "?profileId=k1&refreshed=1", "controls", "/kids-device?profileId=k1#controls"],
    ["/kids-device", "", "controls", "/kids-device?refreshed=1#controls"],
    ["/kids-device", "?refreshed=1", "controls", "/kids-device#controls"],
    ["/global-settings", "?profileId=k1&serialNumber=S1", "ring", "/global-settings?profileId=k1&serialNumber=S1&refreshed=1#ring"],
  ])("%s%s at %s → %s", (pathname, search, at, url) => {
    expect(noJsRefreshUrl(pathname, search, at)).toBe(url);
  });

  it("two refreshes in a row never ask for the page's own URL (which would only scroll)", () => {
    const first = new URL(noJsRefreshUrl("/kids-device", "?profileId=k1", "controls"), "http://x");
    const second = new URL(noJsRefreshUrl(first.pathname, first.search, "controls"), "http://x");
    expect(first.search).not.toBe(second.search);
    expect(second.hash).toBe("#controls");
  });
});
