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
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { benchResult, EXIT_FAILED, reporter, type Bound } from "./report";

const args = process.argv.slice(2);
const dialectArg = args.includes("--dialect") ? args[args.indexOf("--dialect") + 1] : null;
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const SECONDS = Number(process.env.BENCH_SECONDS ?? (SMOKE ? 0.3 : 3));
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (SMOKE ? 9 : 150));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const PG_DB = "kids_portal_bench";

interface Latency {
  p50: number;
  p95: number;
  max: number;
}

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

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function throughput(url: string, headers: Record<string, string>, seconds: number, concurrency: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const r = await fetch(url, { headers });
        await r.arrayBuffer();
        if (!r.ok) throw new Error(`${url}: ${r.status}`);
        done++;
      }
    }),
  );
  return done / seconds;
}

async function child(dialect: "sqlite" | "postgres"): Promise<Result> {
  if (dialect === "postgres") {
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    const exists = await admin.query("select 1 from pg_database where datname = $1", [PG_DB]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE ${PG_DB}`);
    await admin.end();
    process.env.DATABASE_URL = `${PG_BASE}/${PG_DB}`;
  } else {
    process.env.DATA_DIR = SMOKE ? mkdtempSync(path.join(os.tmpdir(), "kids-device-smoke-")) : (process.env.BENCH_DATA_DIR ?? "/tmp/kids-portal-bench");
    process.env.DATABASE_URL = "";
  }
  process.env.NODE_ENV = "production";
  process.env.PUBLIC_URL ??= "http://localhost";
  process.env.SEED_DEMO = "false";
  process.env.SIMULATE_DEMO_DEVICES = "false";
  process.env.LOG_LEVEL = "error";
  process.env.SESSION_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";

  const { startServer } = await import("../server");
  const { seedBig, seedDemo, BENCH_LOGIN, DEMO_LOGIN } = await import("../db/seed/index");
  const login = SMOKE ? DEMO_LOGIN : BENCH_LOGIN;
  const { createSession } = await import("../db/queries/sessions");
  const { sessionCookie } = await import("../core/session-cookie.server");

  const server = await startServer({ port: 0, quiet: true });
  try {
    const db = server.services.db;
    let seedSeconds: number | null = null;
    const present = await db.selectFrom("parents").select("id").where("email", "=", login.email).executeTakeFirst();
    if (!present) {
      const t0 = performance.now();
      if (SMOKE) await seedDemo(db);
      else await seedBig(db, new Date(), () => undefined);
      seedSeconds = (performance.now() - t0) / 1000;
    }
    // Planner statistics, as autovacuum keeps them on a real server (it is off on some development machines,
    // and without statistics PostgreSQL plans every query for one-row tables).
    if (dialect === "postgres") await sql`ANALYZE`.execute(db);
    const parent = await db.selectFrom("parents").select("id").where("email", "=", login.email).executeTakeFirstOrThrow();
    const kids = await db.selectFrom("kid_profiles").select("id").where("parent_id", "=", parent.id).orderBy("name").execute();
    const token = await createSession(db, parent.id, { idleMinutes: 720, absoluteDays: 7 });
    const headers = { Cookie: (await sessionCookie().serialize(token)).split(";")[0], Accept: "text/html" };
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
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
      const t = performance.now();
      const r = await fetch(u, { headers });
      const body = await r.text();
      into.push(performance.now() - t);
      const path = /page-cache;desc="(\w+)"/.exec(r.headers.get("server-timing") ?? "")?.[1];
      if (!r.ok || !body.includes("Most used apps")) throw new Error(`unexpected response ${r.status} for ${u}`);
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
    const lat = (xs: number[]): Latency => {
      xs.sort((x, y) => x - y);
      return { p50: pct(xs, 50), p95: pct(xs, 95), max: xs[xs.length - 1] };
    };
    return {
      dialect,
      samples: SAMPLES,
      cold: lat(cold),
      cached: lat(cached),
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
  const l = (x: Latency) => `p50 ${x.p50.toFixed(1)} ms  p95 ${x.p95.toFixed(1)} ms  max ${x.max.toFixed(1)} ms`;
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
  for (const d of dialects) {
    const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", "--dialect", d, ...(SMOKE ? ["--smoke"] : [])], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: process.env });
    const line = run.stdout.split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) {
      process.stderr.write(`${run.stdout}${run.stderr}\nkids-device bench on ${d}: no result (exit ${run.status})\n`);
      process.exit(EXIT_FAILED);
    }
    const r = JSON.parse(line.slice(7)) as Result;
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
