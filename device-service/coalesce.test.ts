import { describe, expect, it } from "vitest";
import { coalesce, coalesceWrites, inChunks } from "./coalesce";

/** device-service/coalesce.ts: reads asked for together go to the database together. */
describe("coalesced reads", () => {
  const loader = () => {
    const calls: string[][] = [];
    let fail: Error | null = null;
    let gate: Promise<void> = Promise.resolve();
    const read = coalesce<string>(
      async (keys) => {
        calls.push(keys);
        await gate;
        if (fail) throw fail;
        return new Map(keys.filter((k) => k !== "missing").map((k) => [k, k.toUpperCase()]));
      },
      { max: 3 },
    );
    return { read, calls, failWith: (e: Error | null) => (fail = e), hold: (p: Promise<void>) => (gate = p) };
  };

  it("reads of one turn are one load (each key once); a key it does not return is undefined", async () => {
    const l = loader();
    const got = await Promise.all([l.read("a"), l.read("b"), l.read("a"), l.read("missing")]);
    expect(got).toEqual(["A", "B", "A", undefined]);
    expect(l.calls).toEqual([["a", "b", "missing"]]);
    expect(l.read.stats()).toEqual({ batches: 1, keys: 3 });
  });

  it("reads asked for while a load runs wait for it and go together in the next; no more than max keys a load", async () => {
    const l = loader();
    let open!: () => void;
    l.hold(new Promise<void>((r) => (open = r)));
    const first = l.read("a");
    await new Promise((r) => setImmediate(r));
    expect(l.calls).toEqual([["a"]]);
    const later = ["b", "c", "d", "e"].map((k) => l.read(k));
    await new Promise((r) => setImmediate(r));
    expect(l.calls).toHaveLength(1);
    open();
    expect(await Promise.all([first, ...later])).toEqual(["A", "B", "C", "D", "E"]);
    expect(l.calls).toEqual([["a"], ["b", "c", "d"], ["e"]]);
  });

  it("a failed load fails each of its readers with its error; the next load is unaffected", async () => {
    const l = loader();
    l.failWith(new Error("timeout exceeded when trying to connect"));
    const failed = await Promise.allSettled([l.read("a"), l.read("b")]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect((failed[0] as PromiseRejectedResult).reason.message).toBe("timeout exceeded when trying to connect");
    l.failWith(null);
    expect(await l.read("a")).toBe("A");
  });
});

describe("coalesced writes", () => {
  it("writes asked for together go in one batch, two for one key merged (the later's fields win); each resolves after it", async () => {
    const batches: [string, object][][] = [];
    let fail: Error | null = null;
    const put = coalesceWrites<{ a?: number; b?: number }>(async (batch) => {
      batches.push([...batch]);
      if (fail) throw fail;
    });
    await Promise.all([put("x", { a: 1, b: 1 }), put("y", { a: 2 }), put("x", { b: 3 })]);
    expect(batches).toEqual([
      [
        ["x", { a: 1, b: 3 }],
        ["y", { a: 2 }],
      ],
    ]);
    expect(put.stats()).toEqual({ batches: 1, keys: 2 });

    fail = new Error("timeout exceeded when trying to connect");
    const failed = await Promise.allSettled([put("x", { a: 4 }), put("z", { a: 5 })]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});

describe("inChunks (the heartbeat's pings)", () => {
  const turn = () => new Promise<void>((r) => setImmediate(r));

  it("runs a chunk, lets the event loop turn, then the next: work queued during a chunk runs before the next chunk", async () => {
    const seen: number[] = [];
    let seenByOther = -1;
    inChunks(
      Array.from({ length: 120 }, (_, i) => i),
      50,
      (i) => {
        // Something else arrives while the first chunk runs (a command, an acknowledgement): it is not kept waiting for all 120.
        if (i === 0) setImmediate(() => (seenByOther = seen.length));
        seen.push(i);
      },
    );
    expect(seen).toHaveLength(50); // the first chunk at once, no more
    await turn();
    expect(seenByOther).toBe(50);
    expect(seen).toHaveLength(100);
    await turn();
    expect(seen).toEqual(Array.from({ length: 120 }, (_, i) => i)); // all, in order, each once
  });

  it("stops between chunks when told", async () => {
    const seen: number[] = [];
    let stop = false;
    inChunks(
      [1, 2, 3, 4, 5],
      2,
      (i) => seen.push(i),
      () => stop,
    );
    stop = true;
    await turn();
    await turn();
    expect(seen).toEqual([1, 2]);
  });
});
