import { describe, expect, it } from "vitest";
import { extendTotals, requestButton, requestTypeLabel } from "./requests";

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
    ["App Install", { label: "Install", modal: "install" }],
    ["App Uninstall", { label: "UnInstall", modal: null }],
    ["Extend Time", { label: "Extend", modal: "extend" }],
  ] as const)("%s → %o", (type, want) => expect(requestButton(type)).toEqual(want));
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
