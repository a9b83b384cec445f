/**
 * `MIXED_TRACE=1 npx tsx bench/mixed-load.ts …`: a timeline of every POST a web process answers — each PostgreSQL
 * query and pool wait, each Redis command, the garbage collections and event-loop stalls that overlapped it — and,
 * at the end of each loop, the posts' p50 / p99 as the server saw them with the slowest four timelines and the
 * median one. Diagnosis only (it wraps pg, ioredis and http.Server in the web process); the figures of record come
 * from runs without it.
 *
 * A line reads `start +duration what`, in ms from the request's arrival: where a Lock's tail goes (the web
 * process's own collections and stalls, its pool, its statements). `whenSettled` is also how the bench's web processes time their pool waits and, with
 * MIXED_QUERY_TIMES, their statements (bench/mixed-load.ts).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import { Session } from "node:inspector";
import { PerformanceObserver } from "node:perf_hooks";
import { Redis } from "ioredis";
import pg from "pg";

type Timeline = { ms: number; events: string[] };
type Store = { t0: number; events: string[] };
type Fn = (...a: unknown[]) => unknown;

const KEEP = 500;
const STALL_MS = 4;

const line = (start: number, ms: number | undefined, what: string) =>
  `${start.toFixed(1).padStart(6)} ${ms === undefined ? "      " : `+${ms.toFixed(1).padStart(5)}`} ${what}`;

/**
 * Wraps `proto[key]`: each call's result, once settled, is reported to `done` with its name (from `what`) and how long
 * it took. The call itself is unchanged. Used for the web process's statements, pool waits and Redis commands.
 */
export function whenSettled<T extends object>(
  proto: T,
  key: keyof T,
  what: (args: unknown[], result: unknown) => [string, Promise<unknown> | undefined],
  done: (name: string, t0: number) => void,
) {
  const original = proto[key] as unknown as Fn;
  (proto as Record<keyof T, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
    const t0 = performance.now();
    const result = original.apply(this, args);
    const [name, settled] = what(args, result);
    void settled?.then?.(
      () => done(name, t0),
      () => {},
    );
    return result;
  };
}

/** A statement's text as pg was given it (a string or a config object), cut to `max` characters. */
export const sqlText = (a: unknown, max: number) =>
  (typeof a === "string" ? a : ((a as { text?: string } | null)?.text ?? "?")).slice(0, max);

const gcKind = (g: PerformanceEntry) => (g as { detail?: { kind?: number } }).detail?.kind ?? 0;

/** Installs the tracer; `report()` returns the loop's summary (empty when no post was seen) and starts afresh. */
export function installPostTrace(pct: (xs: number[], p: number) => number): { report(): string } {
  const traces: Timeline[] = [];
  const gcs: PerformanceEntry[] = [];
  // Every collection of the loop by kind (perf_hooks constants: 1 minor, 4 major, 8 incremental, 16 weak callbacks):
  // count, total, longest.
  const byKind = new Map<number, { n: number; ms: number; max: number }>();
  new PerformanceObserver((l) => {
    for (const g of l.getEntries()) {
      const kind = gcKind(g);
      const k = byKind.get(kind) ?? { n: 0, ms: 0, max: 0 };
      byKind.set(kind, { n: k.n + 1, ms: k.ms + g.duration, max: Math.max(k.max, g.duration) });
    }
    gcs.push(...l.getEntries());
    if (gcs.length > KEEP) gcs.splice(0, KEEP / 2);
  }).observe({ entryTypes: ["gc"] });
  // The event loop's stalls: a 1 ms timer that fires late, with the CPU time this process used meanwhile (its own
  // work when that is near the stall's length; waiting for a core, or for the kernel, when it is far below it).
  const stalls: [number, number, number][] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage();
    if (now - last > STALL_MS) stalls.push([last + 1, now - last - 1, (cpu.user + cpu.system - lastCpu.user - lastCpu.system) / 1000]);
    if (stalls.length > KEEP) stalls.splice(0, KEEP / 2);
    last = now;
    lastCpu = cpu;
  }, 1).unref();

  const als = new AsyncLocalStorage<Store>();
  const mark = (what: string, t0: number) => {
    const s = als.getStore();
    if (s) s.events.push(line(t0 - s.t0, performance.now() - t0, what));
  };
  const emit = http.Server.prototype.emit as Fn;
  http.Server.prototype.emit = function (this: unknown, ev: string, ...args: unknown[]) {
    const req = args[0] as http.IncomingMessage;
    if (ev !== "request" || req.method !== "POST") return emit.call(this, ev, ...args) as boolean;
    const store: Store = { t0: performance.now(), events: [] };
    (args[1] as http.ServerResponse).on("finish", () => {
      const end = performance.now();
      const overlaps = (start: number, ms: number) => start + ms > store.t0 && start < end;
      for (const g of gcs)
        if (overlaps(g.startTime, g.duration)) store.events.push(line(g.startTime - store.t0, g.duration, `GC (kind ${gcKind(g)})`));
      for (const [start, ms, cpuMs] of stalls)
        if (overlaps(start, ms))
          store.events.push(line(start - store.t0, ms, `event loop stalled (this process's CPU ${cpuMs.toFixed(1)} ms)`));
      store.events.sort((a, b) => parseFloat(a) - parseFloat(b));
      traces.push({ ms: end - store.t0, events: store.events });
    });
    return als.run(store, () => emit.call(this, ev, ...args) as boolean);
  } as typeof http.Server.prototype.emit;

  whenSettled(pg.Client.prototype, "query", (args, r) => [sqlText(args[0], 70), r as Promise<unknown>], mark);
  whenSettled(pg.Pool.prototype, "connect", (_args, r) => ["pool connect", r as Promise<unknown>], mark);
  whenSettled(
    Redis.prototype,
    "sendCommand",
    (args) => {
      const cmd = args[0] as { name: string; promise?: Promise<unknown> };
      return [`redis ${cmd.name}`, cmd.promise];
    },
    mark,
  );

  return {
    report() {
      if (!traces.length) return "";
      const gc = [...byKind].map(([kind, k]) => `kind ${kind}: ${k.n}× ${k.ms.toFixed(0)} ms, longest ${k.max.toFixed(1)}`).join("; ");
      byKind.clear();
      const heap = process.memoryUsage();
      traces.sort((a, b) => b.ms - a.ms);
      const all = traces.map((t) => t.ms);
      const shown = [...traces.slice(0, 4), traces[Math.floor(traces.length / 2)]];
      traces.length = 0;
      return `GC in the loop: ${gc}; heap used ${(heap.heapUsed / 2 ** 20).toFixed(0)} of ${(heap.heapTotal / 2 ** 20).toFixed(0)} MiB, ${(heap.rss / 2 ** 20).toFixed(0)} MiB resident\nposts ${all.length} (as the server saw them): p50 ${pct(all, 50).toFixed(1)} / p99 ${pct(all, 99).toFixed(1)} ms; the slowest four and the median:\n${shown.map((t) => `  ${t.ms.toFixed(1)} ms\n${t.events.map((e) => `    ${e}`).join("\n")}`).join("\n")}\n`;
    },
  };
}

type AllocationNode = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
};
const SAMPLING = { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };

/**
 * `MIXED_ALLOC=1`: V8's sampling heap profiler, counting what the collections took back too (so: all allocation,
 * not what stays). `report()` gives the loop's total and the functions that allocated most (self and inclusive),
 * then samples afresh.
 */
export async function installAllocationSampler(): Promise<{ report(): Promise<string> }> {
  const session = new Session();
  session.connect();
  const post = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))));
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", SAMPLING);
  return {
    async report() {
      const { profile } = (await post("HeapProfiler.stopSampling")) as { profile: { head: AllocationNode } };
      await post("HeapProfiler.startSampling", SAMPLING);
      const self = new Map<string, number>();
      const inclusive = new Map<string, number>();
      const walk = (n: AllocationNode, above: Set<string>): number => {
        const name = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`;
        self.set(name, (self.get(name) ?? 0) + n.selfSize);
        const below = new Set(above).add(name);
        let total = n.selfSize;
        for (const c of n.children) total += walk(c, below);
        if (!above.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + total);
        return total;
      };
      const all = walk(profile.head, new Set());
      const top = (m: Map<string, number>) =>
        [...m]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 20)
          .map(([k, v]) => `  ${(v / 2 ** 20).toFixed(1).padStart(7)} MiB ${k}`)
          .join("\n");
      return `allocated in the loop: ${(all / 2 ** 20).toFixed(0)} MiB\nby function (self):\n${top(self)}\nby function (inclusive):\n${top(inclusive)}\n`;
    },
  };
}
