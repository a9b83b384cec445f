import { describe, expect, it } from "vitest";
import { getOrCreateLru, setBounded } from "./bounded";

describe("setBounded", () => {
  it("keeps at most max entries, the oldest out first, and replaces a held key in place", () => {
    const m = new Map<string, number>();
    for (const [i, k] of ["a", "b", "c"].entries()) setBounded(m, k, i, 2);
    expect([...m]).toEqual([
      ["b", 1],
      ["c", 2],
    ]);
    setBounded(m, "b", 9, 2);
    expect([...m]).toEqual([
      ["b", 9],
      ["c", 2],
    ]);
    setBounded(m, "d", 3, 2);
    expect([...m]).toEqual([
      ["c", 2],
      ["d", 3],
    ]);
  });
});

describe("getOrCreateLru", () => {
  it("creates once per held key, moves a read key to the newest end, and drops the least recently used", () => {
    const m = new Map<string, number>();
    let made = 0;
    const get = (k: string) => getOrCreateLru(m, k, () => ++made * 10, 2);
    expect([get("a"), get("b"), get("a")]).toEqual([10, 20, 10]);
    expect(made).toBe(2);
    expect([...m.keys()]).toEqual(["b", "a"]);
    expect(get("c")).toBe(30);
    expect([...m.keys()]).toEqual(["a", "c"]);
  });

  it("stores nothing when create throws, and keeps a held undefined value", () => {
    const m = new Map<string, number | undefined>([["u", undefined]]);
    expect(() =>
      getOrCreateLru(
        m,
        "x",
        () => {
          throw new Error("bad");
        },
        5,
      ),
    ).toThrow("bad");
    expect(m.has("x")).toBe(false);
    expect(getOrCreateLru(m, "u", () => 1, 5)).toBeUndefined();
  });
});
