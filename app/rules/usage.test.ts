import { describe, expect, it } from "vitest";
import { isManualInstall, listPaging, visibleCount } from "./usage";

describe("most used lists", () => {
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
