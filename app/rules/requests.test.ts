import { describe, expect, it } from "vitest";
import { extendTotals, extendWarning, noLimitExtendNote, requestButton, requestTypeLabel } from "./requests";

describe("a request's type label (spec 2 §2, exact words)", () => {
  it.each([
    ["App Install", 0, "App Installation Request"],
    ["App Uninstall", 0, "App Uninstallation Request"],
    ["Extend Time", 30, "App Time Extend Request - 30 Minutes"],
    ["Extend Time", 15, "App Time Extend Request - 15 Minutes"],
  ] as const)("%s (%s minutes) → %s", (type, minutes, want) => expect(requestTypeLabel(type, minutes)).toBe(want));
});

describe("a request's answer button", () => {
  it.each([
    ["App Install", false, { label: "Install", modal: "install", confirm: null }],
    // Spec 2 §4: a paid app says 'Coming Soon' before the parent presses anything.
    ["App Install", true, { label: "Coming Soon", modal: null, confirm: null }],
    ["App Uninstall", false, { label: "UnInstall", modal: null, confirm: "uninstall" }],
    ["Extend Time", false, { label: "Extend", modal: "extend", confirm: null }],
    ["Extend Time", true, { label: "Extend", modal: "extend", confirm: null }],
  ] as const)("%s (paid %s) → %o", (type, paid, want) => expect(requestButton(type, paid)).toEqual(want));
});

describe("the extend popup's words", () => {
  it("an app with no limit: the extra minutes change nothing until it has one today", () => {
    expect(noLimitExtendNote("Duolingo", "Ada")).toBe(
      "Duolingo has no daily limit, so Ada can already use it as long as the phone's other time rules allow. The extra minutes change nothing now; they count only if you give Duolingo a daily limit today.",
    );
  });
  it.each([
    [
      "app-disabled",
      "Candy Crush is disabled on Ada's phone, so extra time would not let it run. Enable the app first.",
      "Change Candy Crush",
    ],
    [
      "category-disabled",
      "The Casual category is disabled on Ada's phone, so extra time would not let Candy Crush run. Enable the category first.",
      "Change the Casual category",
    ],
    [
      "category-used-up",
      "The Casual category has used up its daily limit today, so extra time would not let Candy Crush run. Raise the category's limit first.",
      "Change the Casual category",
    ],
  ] as const)("%s", (stop, text, link) =>
    expect(extendWarning(stop, { appTitle: "Candy Crush", kidName: "Ada", categoryName: "Casual" })).toEqual({ text, link }),
  );
  it("a name ending in s", () => {
    expect(extendWarning("app-disabled", { appTitle: "Roblox", kidName: "Iris", categoryName: "Games" }).text).toContain("Iris' phone");
  });
});

describe("the extend popup's numbers: current limit, extra minutes, new total", () => {
  it.each([
    ["a 30-minute limit, 30 more", { standing: 30, extraToday: 0, extra: 30 }, { current: 30, extra: 30, total: 60 }],
    ["already extended today by 15", { standing: 30, extraToday: 15, extra: 30 }, { current: 45, extra: 30, total: 75 }],
    ["no limit: nothing to raise", { standing: null, extraToday: 0, extra: 30 }, { current: null, extra: 30, total: null }],
    // Bonus time comes in 15-minute steps (device-service/bonus.ts): an ask off the step rounds up, at most a day.
    ["10 asked: 15 given", { standing: 30, extraToday: 0, extra: 10 }, { current: 30, extra: 15, total: 45 }],
    ["0 asked: one step", { standing: 30, extraToday: 0, extra: 0 }, { current: 30, extra: 15, total: 45 }],
    ["more than a day asked: a day", { standing: 30, extraToday: 0, extra: 2000 }, { current: 30, extra: 1440, total: 1470 }],
  ] as const)("%s", (_n, input, want) => expect(extendTotals(input)).toEqual(want));
});
