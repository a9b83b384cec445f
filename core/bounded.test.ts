import { describe, expect, it } from "vitest";
import { setBounded } from "./bounded";

describe("setBounded", () => {
  it("keeps at most max entries, the oldest out first, and replaces a held key in place", () => {
    const m = new Map<string, number>();
    for (const [i, k] of ["a", "b", "c"].entries()) setBounded(m, k, i, 2);
    expect([...m]).toEqual([["b", 1], ["c", 2]]);
    setBounded(m, "b", 9, 2);
    expect([...m]).toEqual([["b", 9], ["c", 2]]);
    setBounded(m, "d", 3, 2);
    expect([...m]).toEqual([["c", 2], ["d", 3]]);
  });
});
