// One web process of the mixed-load bench (bench/mixed-load.ts starts `--web-processes` of them): the real server
// (server/web.ts) in this child, with what it waits on measured, and its address told to the bench over IPC.
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { pct } from "./mixed-parents";
import { installAllocationSampler, installPostTrace, sqlText, whenSettled } from "./post-trace";

/** A web process: the real server (server/web.ts) in this child; tells the bench its address. */
async function main() {
  // What a web process waits on: the database pool (a connection to be free) and its own event loop.
  const waits: number[] = [];
  whenSettled(
    pg.Pool.prototype,
    "connect",
    (_args, r) => ["", r as Promise<unknown>],
    (_name, t0) => waits.push(performance.now() - t0),
  );
  const bySql = new Map<string, { n: number; ms: number }>();
  if (process.env.MIXED_QUERY_TIMES) {
    whenSettled(
      pg.Client.prototype,
      "query",
      (args, r) => [
        sqlText(args[0], 200)
          .replace(/\$\d+(, )?/g, "")
          .slice(0, 90),
        r as Promise<unknown>,
      ],
      (text, t0) => {
        const e = bySql.get(text) ?? { n: 0, ms: 0 };
        bySql.set(text, { n: e.n + 1, ms: e.ms + performance.now() - t0 });
      },
    );
  }
  // MIXED_TRACE=1: every post's timeline (bench/post-trace.ts), the slowest printed after each loop.
  const trace = process.env.MIXED_TRACE ? installPostTrace(pct) : null;
  // MIXED_ALLOC=1: where the web process allocates, per loop (bench/post-trace.ts).
  const allocations = process.env.MIXED_ALLOC ? await installAllocationSampler() : null;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  process.on("message", (m: { cmd?: string }) => {
    if (m.cmd !== "waits") return;
    process.send?.({
      waits: {
        poolWaitP95Ms: pct(waits, 95),
        poolWaitMaxMs: Math.max(0, ...waits),
        acquisitions: waits.length,
        loopDelayP99Ms: loop.percentile(99) / 1e6,
      },
    });
    if (bySql.size)
      process.stderr.write(
        `${[...bySql]
          .sort((a, b) => b[1].ms - a[1].ms)
          .slice(0, 15)
          .map(([k, v]) => `${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(6)}× ${(v.ms / v.n).toFixed(2)} ms  ${k}`)
          .join("\n")}\n`,
      );
    const traced = trace?.report();
    if (traced) process.stderr.write(traced);
    if (allocations) void allocations.report().then((t) => process.stderr.write(t));
    bySql.clear();
    waits.length = 0;
    loop.reset();
  });
  const { startServer } = await import("../server/web");
  const s = await startServer({ port: 0, quiet: true });
  process.send?.({ ready: true, url: s.url.replace("localhost", "127.0.0.1"), pid: process.pid });
  // A clean exit (so --cpu-prof writes its profile) when the bench lets go of us.
  process.on("disconnect", () => void s.close().finally(() => process.exit(0)));
}

void main();
