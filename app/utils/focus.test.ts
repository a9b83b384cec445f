import { describe, expect, it } from "vitest";
import { isNewPage, wrapFocus } from "./focus";

// Issue 11 item 2: focus rules of popups (Tab stays inside) and of client-side navigation (focus to the heading).
describe("focus inside a popup", () => {
  const items = ["close", "name", "save"] as const;
  it.each([
    [null, false, "close"], // focus on the dialog itself: Tab goes to its first control
    [null, true, "save"], // Shift+Tab from the dialog itself: its last control
    ["close", true, "save"], // Shift+Tab from the first control wraps to the last
    ["save", false, "close"], // Tab from the last control wraps to the first
    ["name", false, null], // in between: the browser moves focus as usual
    ["name", true, null],
  ] as const)("from %s (backwards: %s) → %s", (active, backwards, expected) => {
    expect(wrapFocus(items, active, backwards)).toBe(expected);
  });
  it("a popup without controls keeps focus where it is", () => {
    expect(wrapFocus([], null, false)).toBeNull();
  });
});

describe("what counts as a new page (focus moves to its heading)", () => {
  it.each([
    [null, "/kids-device", "", false], // the first load: the browser's own focus
    ["/kids-device", "/global-settings", "?profileId=a", true],
    ["/kids-device?profileId=a", "/kids-device", "?profileId=b", true], // another kid
    ["/kids-device?profileId=a", "/kids-device", "?profileId=a&modal=edit", false], // a popup opens
    ["/kids-device?profileId=a&modal=edit", "/kids-device", "?profileId=a", false], // …and closes
    ["/kids-device?profileId=a", "/kids-device", "?profileId=a&filter=week", false], // a filter
    ["/device-info?profile_id=a", "/device-info", "?profile_id=b", true],
  ] as const)("%s → %s%s: %s", (prev, pathname, search, expected) => {
    const p = prev === null ? null : { pathname: prev.split("?")[0], search: prev.includes("?") ? `?${prev.split("?")[1]}` : "" };
    expect(isNewPage(p, { pathname, search })).toBe(expected);
  });
});
