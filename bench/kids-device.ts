/**
 * /kids-device server time on the --big data set (5 kids × 80 apps × 365 days), on SQLite and PostgreSQL,
 * and its throughput as a ratio of a bare Express route (/healthz) on the same server in the same run.
 *
 *   npx remix build && npx tsx bench/kids-device.ts            # both dialects (each in its own process)
 *   npx tsx bench/kids-device.ts --dialect sqlite               # one
 *   BENCH_SECONDS=3 BENCH_SAMPLES=150 … (defaults: 3 s per throughput run, 150 sequential samples)
 *   --json                                                       only the result line (bench/report.ts)
 *   --smoke                                                      tiny run on the demo family, SQLite only
 *                                                                (checks the code path; its figures are no measurement)
 *
 * The big data set is seeded once and kept: SQLite in $BENCH_DATA_DIR (default /tmp/kids-portal-bench),
 * PostgreSQL in the database `kids_portal_bench` on $BENCH_PG (default postgres://postgres@127.0.0.1:5432).
 * Two paths: full renders (the kid's view_rev is moved before each request, as a phone upload would, so the
 * page cache misses) and repeat views (answered by the page cache; decision 004). Throughput is measured with
 * the cache and, for the record, without it.
 * Targets (issue 22): full-render p95 ≤ 20 ms on SQLite and ≤ 25 ms on PostgreSQL, repeat-view throughput ≥ 0.5×
 * the bare route. Ends with one JSON line (bench/report.ts).
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { benchResult, reporter, type Bound } from "./report";
import { fmtLatency, latency, openBenchServer, runDialects, throughput, timedGet, type Dialect, type Latency } from "./page-bench";

const args = process.argv.slice(2);
const dialectArg = args.includes("--dialect") ? args[args.indexOf("--dialect") + 1] : null;
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 0.3 : 3));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (SMOKE ? 9 : 150));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

interface Result {
  dialect: string;
  samples: number;
  /** Every request a full render: the kid's view_rev is moved before each one, as a phone upload would. */
  cold: Latency;
  /** Repeat views answered by the page cache. */
  cached: Latency;
  pageRps: number;
  coldRps: number;
  bareRps: number;
  ratio: number;
  coldRatio: number;
  hitRate: number;
  seedSeconds: number | null;
}

async function child(dialect: Dialect): Promise<Result> {
  const { server, db, parentId, headers, base, seedSeconds } = await openBenchServer(dialect, { smoke: SMOKE, smokePrefix: "kids-device-smoke-" });
  try {
    const kids = await db.selectFrom("kid_profiles").select("id").where("parent_id", "=", parentId).orderBy("name").execute();
    const urls = kids.flatMap((k) => [
      `${base}/kids-device?profileId=${k.id}`,
      `${base}/kids-device?profileId=${k.id}&filter=week`,
      `${base}/kids-device?profileId=${k.id}&filter=week&week=previous&apps=9&cats=6`,
    ]);
    // Warm up (JIT, SQLite page cache, Postgres plans).
    for (const u of urls) await (await fetch(u, { headers })).arrayBuffer();
    const sample = async (u: string, bump: boolean, into: number[]) => {
      if (bump) {
        const profileId = new URL(u).searchParams.get("profileId")!;
        await db.updateTable("kid_profiles").set((eb) => ({ view_rev: eb("view_rev", "+", 1) })).where("id", "=", profileId).execute();
      }
      const r = await timedGet(u, headers, into, (_r, body) => body.includes("Most used apps"));
      const path = /page-cache;desc="(\w+)"/.exec(r.headers.get("server-timing") ?? "")?.[1];
      if (path !== (bump ? "miss" : "hit")) throw new Error(`expected a cache ${bump ? "miss" : "hit"} for ${u}, got ${path}`);
    };
    const cold: number[] = [];
    const cached: number[] = [];
    for (let i = 0; i < SAMPLES; i++) await sample(urls[i % urls.length], true, cold);
    for (const u of urls) await (await fetch(u, { headers })).arrayBuffer();
    for (let i = 0; i < SAMPLES; i++) await sample(urls[i % urls.length], false, cached);
    const bareRps = await throughput(`${base}/healthz`, {}, SECONDS, CONCURRENCY);
    const before = server.pageCache.stats();
    const pageRps = await throughput(urls[0], headers, SECONDS, CONCURRENCY);
    const after = server.pageCache.stats();
    server.pageCache.resize(0);
    const coldRps = await throughput(urls[0], headers, SECONDS, CONCURRENCY);
    return {
      dialect,
      samples: SAMPLES,
      cold: latency(cold),
      cached: latency(cached),
      pageRps,
      coldRps,
      bareRps,
      ratio: pageRps / bareRps,
      coldRatio: coldRps / bareRps,
      hitRate: (after.hits - before.hits) / Math.max(1, after.hits - before.hits + after.misses - before.misses),
      seedSeconds,
    };
  } finally {
    await server.close();
  }
}

function fmt(r: Result): string {
  const ok = r.cold.p95 <= (FULL_RENDER_P95_MS[r.dialect] ?? 25) && r.ratio >= RATIO_MIN;
  const l = fmtLatency;
  return [
    `${r.dialect.padEnd(9)} full render (view_rev moved before each): ${l(r.cold)}  (${r.samples} sequential requests)`,
    `          repeat view (page cache):                 ${l(r.cached)}`,
    `          throughput /kids-device ${r.pageRps.toFixed(0)} req/s (hit rate ${(r.hitRate * 100).toFixed(0)}%) vs bare /healthz ${r.bareRps.toFixed(0)} req/s → ratio ${r.ratio.toFixed(3)}  ${ok ? "OK" : "BELOW TARGET"}`,
    `          throughput with the page cache off: ${r.coldRps.toFixed(0)} req/s → ratio ${r.coldRatio.toFixed(3)}`,
    r.seedSeconds != null ? `          (seeded the big family in ${r.seedSeconds.toFixed(0)} s)` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

/** Targets (issue 22 item 4): full render p95 ≤ 20 ms SQLite / 25 ms PostgreSQL, repeat-view throughput ≥ 0.5× bare. */
const FULL_RENDER_P95_MS: Record<string, number> = { sqlite: 20, postgres: 25 };
const RATIO_MIN = 0.5;

if (args.includes("--child")) {
  const r = await child(dialectArg === "postgres" ? "postgres" : "sqlite");
  console.log(`RESULT ${JSON.stringify(r)}`);
  process.exit(0);
} else {
  const out = reporter(JSON_ONLY);
  const dialects = dialectArg ? [dialectArg] : SMOKE ? ["sqlite"] : ["sqlite", "postgres"];
  out.say(`bench: /kids-device on the ${SMOKE ? "demo (smoke: no measurement)" : "--big"} data set · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · Node ${process.version} · ${new Date().toISOString()}`);
  const self = fileURLToPath(import.meta.url);
  const figures: Record<string, number> = {};
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  const results = runDialects<Result>(self, "kids-device", dialects, SMOKE ? ["--smoke"] : []);
  for (const { dialect: d, result: r } of results) {
    out.say(fmt(r));
    Object.assign(figures, {
      [`${d}.fullRenderP50Ms`]: r.cold.p50,
      [`${d}.fullRenderP95Ms`]: r.cold.p95,
      [`${d}.repeatViewP95Ms`]: r.cached.p95,
      [`${d}.pageRps`]: r.pageRps,
      [`${d}.pageRpsCacheOff`]: r.coldRps,
    });
    baselines[`${d}.bareRps`] = r.bareRps;
    ratios[`${d}.pageRps`] = r.ratio;
    ratios[`${d}.pageRpsCacheOff`] = r.coldRatio;
    targets[`${d}.fullRenderP95Ms`] = { max: FULL_RENDER_P95_MS[d] ?? 25 };
    targets[`${d}.pageRps`] = { min: RATIO_MIN };
  }
  process.exitCode = out.finish(benchResult({ bench: "kids-device", figures, baselines, ratios, targets }));
}
