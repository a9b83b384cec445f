/**
 * What the page benches share (bench/kids-device.ts, bench/apps-pages.ts): latency percentiles, a throughput
 * loop, the big data set on either dialect (seeded once and kept), a signed-in parent's headers on a real server
 * (`startServer`, the production build), and the parent process that runs one child per dialect and collects
 * its `RESULT {…}` line.
 *
 * The big data set: SQLite in $BENCH_DATA_DIR (default /tmp/kids-portal-bench), PostgreSQL in the database
 * $BENCH_PG_DB (default `kids_portal_bench`) on $BENCH_PG (default postgres://postgres@127.0.0.1:5432), with a
 * year of the kids' weekly reports built by the report job itself; `--smoke` uses the demo family
 * in a fresh temporary SQLite directory instead (it checks the code path; its figures are no measurement).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { WEB_PROCESS_FLAGS } from "../scripts/node-flags.mjs";
import { EXIT_FAILED } from "./report";

export type Dialect = "sqlite" | "postgres";

export interface Latency {
  p50: number;
  p95: number;
  max: number;
}

export const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
/** The big set's PostgreSQL database: $BENCH_PG_DB, default kids_portal_bench (a second copy lets two people measure at once). */
export const PG_DB = process.env.BENCH_PG_DB ?? "kids_portal_bench";
if (!/^[a-z_][a-z0-9_]*$/.test(PG_DB)) throw new Error(`BENCH_PG_DB: not a plain database name: ${PG_DB}`);

export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** p50, p95 and max of the samples (sorts them in place). */
export function latency(xs: number[]): Latency {
  xs.sort((x, y) => x - y);
  return { p50: pct(xs, 50), p95: pct(xs, 95), max: xs[xs.length - 1] };
}

export const fmtLatency = (x: Latency) => `p50 ${x.p50.toFixed(1)} ms  p95 ${x.p95.toFixed(1)} ms  max ${x.max.toFixed(1)} ms`;

/** Requests per second on `url` with `concurrency` loops for `seconds`. */
export async function throughput(url: string, headers: Record<string, string>, seconds: number, concurrency: number): Promise<number> {
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

/** One timed GET; `check` refuses an unexpected answer (a bench never measures an error page). */
export async function timedGet(
  url: string,
  headers: Record<string, string>,
  into: number[],
  check: (r: Response, body: string) => boolean,
): Promise<Response> {
  const t = performance.now();
  const r = await fetch(url, { headers });
  const body = await r.text();
  into.push(performance.now() - t);
  if (!r.ok || !check(r, body)) throw new Error(`unexpected response ${r.status} for ${url}`);
  return r;
}

/** Points the environment at the bench database of `dialect` (created on PostgreSQL when missing). */
async function pointAtBenchDatabase(dialect: Dialect, smoke: boolean, smokePrefix: string): Promise<void> {
  if (dialect === "postgres") {
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    const exists = await admin.query("select 1 from pg_database where datname = $1", [PG_DB]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE ${PG_DB}`);
    await admin.end();
    process.env.DATABASE_URL = `${PG_BASE}/${PG_DB}`;
  } else {
    process.env.DATA_DIR = smoke
      ? mkdtempSync(path.join(os.tmpdir(), smokePrefix))
      : (process.env.BENCH_DATA_DIR ?? "/tmp/kids-portal-bench");
    process.env.DATABASE_URL = "";
  }
  process.env.NODE_ENV = "production";
  // The web filter as in a deployment but with the development certificate, its DoT not started (no port to share).
  process.env.DNS_DEV_CERT = "true";
  process.env.DNS_DOT_IN_WEB = "false";
  process.env.PUBLIC_URL ??= "http://localhost";
  process.env.SEED_DEMO = "false";
  process.env.SIMULATE_DEMO_DEVICES = "false";
  process.env.LOG_LEVEL = "error";
  process.env.SESSION_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
}

/**
 * A production server on an ephemeral port over the bench data set (seeded when missing), with planner
 * statistics on PostgreSQL, and a signed-in parent of that data set. Close it with `server.close()`.
 */
export async function openBenchServer(dialect: Dialect, opts: { smoke: boolean; smokePrefix: string }) {
  await pointAtBenchDatabase(dialect, opts.smoke, opts.smokePrefix);
  const { startServer } = await import("../server/web");
  const { seedBig, seedDemo, BENCH_LOGIN, DEMO_LOGIN } = await import("../db/seed/index");
  const { createSession } = await import("../db/queries/sessions");
  const { buildDueReports } = await import("../jobs/reports/build");
  const { sessionCookie } = await import("../core/session-cookie.server");
  const login = opts.smoke ? DEMO_LOGIN : BENCH_LOGIN;
  const server = await startServer({ port: 0, quiet: true });
  try {
    const db = server.services.db;
    let seedSeconds: number | null = null;
    const present = await db.selectFrom("parents").select("id").where("email", "=", login.email).executeTakeFirst();
    const t0 = performance.now();
    if (!present && opts.smoke) await seedDemo(db);
    // Seeds the whole set when missing, else adds what an older set lacks (its requests and schedules).
    else if (!opts.smoke) await seedBig(db, new Date(), () => undefined);
    // The kids' weekly reports (the parent's setting) over the seeded usage (a year of them on the big set), built
    // by the report job as the demo's are at start-up; only the missing ones, so a few reads once they are there.
    await buildDueReports({ db }, { since: new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10) });
    if (!present) seedSeconds = (performance.now() - t0) / 1000;
    // Planner statistics, as autovacuum keeps them on a real server (it is off on some development machines,
    // and without statistics PostgreSQL plans every query for one-row tables).
    if (dialect === "postgres") await sql`ANALYZE`.execute(db);
    const parent = await db.selectFrom("parents").select("id").where("email", "=", login.email).executeTakeFirstOrThrow();
    const token = await createSession(db, parent.id, { idleMinutes: 720, absoluteDays: 7 });
    const headers = { Cookie: (await sessionCookie().serialize(token)).split(";")[0], Accept: "text/html" };
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
    return { server, db, parentId: parent.id, headers, base, seedSeconds };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/**
 * The parent side: runs `script --child --dialect <d> [extra]` once per dialect, each in its own process, and
 * returns each child's parsed `RESULT` line; a child without one prints its output and ends the run (EXIT_FAILED).
 */
export function runDialects<R>(script: string, name: string, dialects: string[], extra: string[]): { dialect: string; result: R }[] {
  return dialects.map((d) => {
    const run = spawnSync(process.execPath, [...WEB_PROCESS_FLAGS, "--import", "tsx", script, "--child", "--dialect", d, ...extra], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    const line = run.stdout.split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) {
      process.stderr.write(`${run.stdout}${run.stderr}\n${name} bench on ${d}: no result (exit ${run.status})\n`);
      process.exit(EXIT_FAILED);
    }
    return { dialect: d, result: JSON.parse(line.slice(7)) as R };
  });
}
