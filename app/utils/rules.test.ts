import { describe, expect, it } from "vitest";
import {
  ackColour,
  batteryIcon,
  checkDailyLimit,
  externalMapUrl,
  formatMinutes,
  isManualInstall,
  kidAge,
  limitAfterToggle,
  limitProgress,
  listPaging,
  localMapHref,
  mapBbox,
  resolvePeriod,
  roundUpToStep,
  screenTimeRecommendation,
  sniffImageType,
  statusBadgeColour,
  stepMinutes,
  toMinutes,
  trackingInterval,
  visibleCount,
} from "./rules";

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

  it.each([
    [0, 1, 15],
    [0, -1, 0],
    [15, -1, 0],
    [10, -1, 0],
    [30, 1, 45],
    [-20, 1, 15],
    ["45", -1, 30],
  ] as const)("steps %j by %j to %j, never below 0", (v, d, out) => expect(stepMinutes(v, d)).toBe(out));

  it.each([
    [20, { ok: false, minutes: 0, message: "Please enter time multiple of 15." }],
    [7, { ok: false, minutes: 0, message: "Please enter time multiple of 15." }],
    [30, { ok: true, minutes: 30 }],
    [0, { ok: true, minutes: 0 }],
    [-15, { ok: true, minutes: 0 }],
    ["", { ok: true, minutes: 0 }],
    ["22.5", { ok: false, minutes: 0, message: "Please enter time multiple of 15." }],
  ])("daily limit %j → %j", (v, out) => expect(checkDailyLimit(v)).toEqual(out));

  it("toggle off → 0, on → 15; negative → 0", () => {
    expect(limitAfterToggle(false)).toBe(0);
    expect(limitAfterToggle(true)).toBe(15);
    expect(toMinutes(-3)).toBe(0);
    expect(toMinutes("12")).toBe(12);
  });

  it.each([
    [false, 30, 0],
    [true, 0, 15],
    [true, 20, 30],
    [true, 45, 45],
  ])("tracking %j with interval %j → %j", (on, v, out) => expect(trackingInterval(on, v)).toBe(out));

  it.each([
    [0, "0m"],
    [45, "45m"],
    [60, "1h"],
    [135, "2h 15m"],
    [605, "10h 05m"],
  ])("formats %j minutes as %j", (m, s) => expect(formatMinutes(m)).toBe(s));
});

describe("age and recommendation (spec 1 §9)", () => {
  const today = new Date("2026-06-15T10:00:00Z");
  it.each([
    [6, 2014, 12],
    [7, 2014, 11],
    [1, 2026, 0],
    [12, 2019, 6],
  ])("born %j/%j is %j on 2026-06-15", (m, y, age) => expect(kidAge(m, y, today)).toBe(age));

  it.each([
    [0, "under-2"],
    [1, "under-2"],
    [2, "2-to-4"],
    [3, "2-to-4"],
    [4, "4-to-8"],
    [7, "4-to-8"],
    [8, null],
    [9, "9-to-10"],
    [10, "10-plus"],
    [15, "10-plus"],
  ])("age %j → %j", (age, bracket) => expect(screenTimeRecommendation(age)?.bracket ?? null).toBe(bracket));

  it("gives one hour a week per year of age as media vouchers from 10", () => {
    expect(screenTimeRecommendation(12)).toMatchObject({ weeklyHours: 12, voucherTemplate: true });
    expect(screenTimeRecommendation(9)?.voucherTemplate).toBeUndefined();
    expect(screenTimeRecommendation(3)?.text).toContain("5 to 10 minutes");
    expect(screenTimeRecommendation(5)?.text).toContain("30 to 60 minutes");
    expect(screenTimeRecommendation(1)?.text).toMatch(/avoid screens/i);
  });
});

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

  it.each([
    ["Accepted", "green"],
    ["Pending", "yellow"],
    ["Rejected", "red"],
    ["Revoked", "grey"],
    [null, "grey"],
  ])("status %j → %j", (s, c) => expect(statusBadgeColour(s)).toBe(c));

  it.each([
    [10, 30, 33, false],
    [30, 30, 100, true],
    [45, 30, 100, true],
    [29, 30, 97, false],
    [50, 0, 0, false],
  ])("used %j of %j → %j%, red %j", (u, l, p, over) => expect(limitProgress(u, l)).toEqual({ percent: p, over }));

  it("marks 'Others' as manually installed", () => {
    expect(isManualInstall("Others")).toBe(true);
    expect(isManualInstall("GAME_PUZZLE")).toBe(false);
    expect(isManualInstall(null)).toBe(false);
  });
});

describe("list paging", () => {
  it.each([
    [null, 3],
    ["", 3],
    ["2", 3],
    ["3", 3],
    ["6", 6],
    ["7", 9],
    ["-9", 3],
    ["99999", 300],
  ])("visible count from %j → %j", (raw, n) => expect(visibleCount(raw)).toBe(n));

  it.each([
    [3, 10, { showMore: 6, showLess: null }],
    [6, 10, { showMore: 9, showLess: 3 }],
    [12, 10, { showMore: null, showLess: 3 }],
    [3, 3, { showMore: null, showLess: null }],
    [3, 2, { showMore: null, showLess: null }],
  ])("count %j of %j → %j", (c, t, out) => expect(listPaging(c, t)).toEqual(out));
});

describe("day and week navigation", () => {
  const now = new Date("2026-11-21T15:00:00Z"); // a Saturday
  it("defaults to today, steps back 24 hours and never past today", () => {
    const p = resolvePeriod({}, now);
    expect(p).toMatchObject({ filter: "day", date: "2026-11-21", from: "2026-11-21", to: "2026-11-22", label: "Today", prev: { date: "2026-11-20" }, next: null });
    const back = resolvePeriod({ date: "2026-11-20" }, now);
    expect(back.next).toEqual({ date: "2026-11-21" });
    expect(back.label).toBe("Fri, Nov 20, 2026");
    expect(resolvePeriod({ date: "2026-12-25" }, now).date).toBe("2026-11-21");
    expect(resolvePeriod({ date: "2026-02-30" }, now).date).toBe("2026-11-21");
    expect(resolvePeriod({ date: "2026-03-01" }, now).prev).toEqual({ date: "2026-02-28" });
  });
  it("toggles This Week and Previous Week (Monday to Sunday)", () => {
    const cur = resolvePeriod({ filter: "week" }, now);
    expect(cur).toMatchObject({ label: "This Week", from: "2026-11-16", to: "2026-11-23", days: 7, prev: { week: "previous" }, next: null });
    const prev = resolvePeriod({ filter: "week", week: "previous" }, now);
    expect(prev).toMatchObject({ label: "Previous Week", from: "2026-11-09", to: "2026-11-16", prev: null, next: { week: "current" } });
    expect(resolvePeriod({ filter: "bogus", week: "x" }, now).filter).toBe("day");
  });
});

describe("map", () => {
  it("uses a 0.001° bounding box, zoom 12 locally and 13 on the external link", () => {
    expect(mapBbox(51.5014, -0.1419)).toEqual([-0.1429, 51.5004, -0.1409, 51.5024]);
    expect(localMapHref(51.5, -0.1)).toBe("/map?lat=51.5&long=-0.1&zoom=12&bbox=-0.101%2C51.499%2C-0.099%2C51.501");
    expect(externalMapUrl(51.5, -0.1)).toBe("https://www.openstreetmap.org/?mlat=51.5&mlon=-0.1#map=13/51.5/-0.1");
  });
});

describe("picture type from bytes", () => {
  it.each([
    [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0], "image/png"],
    [[0xff, 0xd8, 0xff, 0xe0], "image/jpeg"],
    [[0x47, 0x49, 0x46, 0x38, 0x39, 0x61], "image/gif"],
    [[0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50], "image/webp"],
    [[0x3c, 0x73, 0x76, 0x67], null],
    [[0x25, 0x50, 0x44, 0x46], null],
    [[], null],
  ])("%j → %j", (bytes, type) => expect(sniffImageType(new Uint8Array(bytes))).toBe(type));
});
