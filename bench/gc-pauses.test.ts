import { describe, expect, it } from "vitest";
import { apartFromPauses, watchGcPauses } from "./gc-pauses";

describe("the bench's own GC pauses beside its timed spans", () => {
  it("keeps the spans no pause touches and counts the others", () => {
    const spans = [
      { start: 0, end: 10 },
      { start: 10, end: 20 },
      { start: 20, end: 30 },
      { start: 30, end: 40 },
    ];
    // One pause inside the second span, one across the third's end and the fourth's start.
    const r = apartFromPauses(spans, [
      { start: 12, end: 14 },
      { start: 29, end: 31 },
    ]);
    expect(r.clear).toEqual([{ start: 0, end: 10 }]);
    expect(r.overlapped).toBe(3);
  });

  it("a pause that only touches a span's edge does not overlap it", () => {
    expect(
      apartFromPauses(
        [{ start: 10, end: 20 }],
        [
          { start: 20, end: 25 },
          { start: 5, end: 10 },
        ],
      ).overlapped,
    ).toBe(0);
  });

  it("with no pauses every span is clear", () => {
    expect(apartFromPauses([{ start: 1, end: 2 }], []).clear).toHaveLength(1);
  });

  it("records this process's collections while it watches", async () => {
    const w = watchGcPauses();
    // 48 MB of short-lived arrays: more than any heap takes without a collection.
    let keep = 0;
    for (let i = 0; i < 300; i++) keep += new Array(20_000).fill(i).length;
    await new Promise((r) => setTimeout(r, 20));
    const pauses = w.stop();
    expect(keep).toBe(6_000_000);
    expect(pauses.length).toBeGreaterThan(0);
    for (const p of pauses) expect(p.end).toBeGreaterThanOrEqual(p.start);
  });
});
