/**
 * Parents and phones at once (issue 22 item 5). The real server (`npm start` shape: web and device service in
 * one process, `server.ts`, production build) on a fresh PostgreSQL database, and:
 *
 *   parents  `--parents` signed-in parents, each with one kid and one connected phone (held by this process),
 *            each clicking in a loop with a think time: the dashboard (/kids-device), the settings page
 *            (/global-settings), and Lock now (POST /device-info, confirmed) — the command's time is from the
 *            post until the kid's phone receives the LOCK frame;
 *   fleet    `--phones` more phones (in client processes, bench/fleet-client.ts), connected and each uploading
 *            usage every `--report-ms` (jittered), every upload waiting for its acknowledgement.
 *
 * The parents' loop runs twice for `--seconds`: first with only their own phones connected (the baseline), then
 * with the whole fleet connected and reporting. Printed: page p95 and command p99 in both, the fleet's
 * acknowledged uploads per second, and failures (any page not 200, any command not delivered).
 *
 *   npx remix build && npx tsx bench/mixed-load.ts [--phones 10000] [--parents 100] [--seconds 20] [--think-ms 1000]
 *                                                  [--report-ms 30000] [--buckets 5] [--json] [--smoke]
 *
 * Default 10,000 phones: what one server process holds under the 20,000 open-file limit (the `npm start`
 * shape). 50,000 needs the web tier in front of a device-service cluster (DEVICE_PROCESSES, decision 005),
 * which this bench does not start yet. Targets: page p95 ≤ 30 ms and command p99 ≤ 20 ms under load, no
 * failures. Ends with one JSON line (bench/report.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { nowIso } from "../core/ids.server";
import { createDb, migrateToLatest, type DB } from "../db/index";
import { fleetCredential, fleetDeviceId, MiniPhone } from "../device-service/simulator/fleet";
import { Children, phase, PhaseTimeout } from "./phases";
import { sourceAddress } from "./fleet-limits";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter } from "./report";

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        phones: { type: "string" },
        parents: { type: "string" },
        seconds: { type: "string" },
        "think-ms": { type: "string" },
        "report-ms": { type: "string" },
        buckets: { type: "string" },
        server: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
        smoke: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT_USAGE);
  }
})();
const SMOKE = values.smoke!;
const PHONES = Number(values.phones ?? (SMOKE ? 40 : 10_000));
const PARENTS = Number(values.parents ?? (SMOKE ? 4 : 100));
const SECONDS = Number(values.seconds ?? (SMOKE ? 2 : 20));
const THINK_MS = Number(values["think-ms"] ?? (SMOKE ? 100 : 1000));
const REPORT_MS = Number(values["report-ms"] ?? (SMOKE ? 500 : 30_000));
const BUCKETS = Number(values.buckets ?? 5);
const PHONES_PER_CLIENT = 10_000;
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const SECRET = "mixed-bench-secret-mixed-bench-secret-0123";
const ENROLLED_AT = new Date(Date.now() - 2 * 86_400_000).toISOString();
const TARGET_PAGE_P95_MS = 30;
const TARGET_COMMAND_P99_MS = 20;

/** Server mode: the real server in this child process; tells the bench its port. */
async function serverMain() {
  const { startServer } = await import("../server");
  const s = await startServer({ port: 0, quiet: true });
  process.send?.({ ready: true, url: s.url.replace("0.0.0.0", "127.0.0.1") });
  process.on("disconnect", () => process.exit(0));
}

const children = new Children();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : Number.NaN;
};

function child(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const cmd = `ulimit -n $(ulimit -Hn) && exec "$0" "$@"`;
  return children.add(spawn("sh", ["-c", cmd, process.execPath, "--import", "tsx", ...args], { stdio: ["ignore", process.stderr, "inherit", "ipc"], env }));
}

function ask<T>(proc: ChildProcess, msg: object | null, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, sig: string | null) => reject(new Error(`a bench child exited (${sig ?? `exit ${code}`}) while waiting for '${key}'`));
    const on = (r: Record<string, unknown>) => {
      if (key in r) {
        proc.off("message", on);
        proc.off("exit", onExit);
        resolve(r as T);
      }
    };
    proc.on("message", on);
    proc.once("exit", onExit);
    if (msg) proc.send(msg);
  });
}

/** Parent i has kid i and phone i (fleetDeviceId(i)); phones PARENTS… belong to one more family (the fleet). */
async function provision(db: DB): Promise<{ parentId: string; kidId: string; serial: string }[]> {
  const ts = nowIso();
  const fam = Array.from({ length: PARENTS + 1 }, (_, i) => ({ parentId: `mixp${i}`, kidId: `mixk${i}` }));
  for (let i = 0; i < fam.length; i += 400) {
    const part = fam.slice(i, i + 400);
    await db.insertInto("parents").values(part.map((f) => ({ id: f.parentId, email: `${f.parentId}@bench.test`, name: "Parent", password_hash: null, role: "parent" as const, created_at: ts, updated_at: ts }))).execute();
    await db.insertInto("kid_profiles").values(part.map((f) => ({ id: f.kidId, parent_id: f.parentId, name: "Kid", birth_month: 1, birth_year: 2015, picture_mime: null, picture: null, created_at: ts, updated_at: ts }))).execute();
  }
  const total = PARENTS + PHONES;
  for (let i = 0; i < total; i += 500) {
    const rows = Array.from({ length: Math.min(500, total - i) }, (_, k) => ({
      id: fleetDeviceId(i + k),
      profile_id: i + k < PARENTS ? `mixk${i + k}` : `mixk${PARENTS}`,
      serial_number: `FLEET-${i + k}`,
      credential_hash: createHash("sha256").update(fleetCredential(i + k)).digest("hex"),
      created_at: ENROLLED_AT,
      updated_at: ts,
    }));
    await db.insertInto("devices").values(rows).execute();
  }
  return fam.slice(0, PARENTS).map((f, i) => ({ ...f, serial: `FLEET-${i}` }));
}

interface Round {
  pages: number[];
  commands: number[];
  failures: string[];
}

/** Every parent clicks for `SECONDS`: dashboard, settings, Lock now (post → the phone receives the LOCK). */
async function parentsLoop(base: string, parents: { kidId: string; serial: string; cookie: string; phone: MiniPhone }[]): Promise<Round> {
  const r: Round = { pages: [], commands: [], failures: [] };
  const until = performance.now() + SECONDS * 1000;
  const page = async (url: string, cookie: string) => {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { Cookie: cookie, Accept: "text/html" }, redirect: "manual" });
    await res.arrayBuffer();
    r.pages.push(performance.now() - t0);
    if (res.status !== 200) r.failures.push(`${res.status} ${new URL(url).pathname}`);
  };
  await Promise.all(
    parents.map(async (p) => {
      await sleep(Math.random() * THINK_MS);
      while (performance.now() < until) {
        await page(`${base}/kids-device?profileId=${p.kidId}`, p.cookie);
        await sleep(THINK_MS * (0.5 + Math.random()));
        await page(`${base}/global-settings?profileId=${p.kidId}&serialNumber=${p.serial}`, p.cookie);
        await sleep(THINK_MS * (0.5 + Math.random()));
        const where = `/device-info?profile_id=${p.kidId}&serialNumber=${p.serial}`;
        const received = new Promise<void>((resolve) => (p.phone.onCommand = () => resolve()));
        const t0 = performance.now();
        const res = await fetch(`${base}${where}&confirm=lock`, {
          method: "POST",
          headers: { Cookie: p.cookie, Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ intent: "lock", confirmed: "yes" }),
          redirect: "manual",
        });
        await res.arrayBuffer();
        if (res.status !== 302 && res.status !== 303) r.failures.push(`${res.status} POST /device-info`);
        else if (await Promise.race([received.then(() => true), sleep(10_000).then(() => false)])) r.commands.push(performance.now() - t0);
        else r.failures.push("LOCK not received within 10 s");
        await sleep(THINK_MS * (0.5 + Math.random()));
      }
    }),
  );
  return r;
}

async function main() {
  const out = reporter(values.json!);
  if (![PHONES, PARENTS, SECONDS, THINK_MS, REPORT_MS, BUCKETS].every((n) => Number.isFinite(n) && n > 0) || BUCKETS > 20) {
    process.stderr.write("--phones, --parents, --seconds, --think-ms, --report-ms and --buckets (≤ 20) are positive numbers.\n");
    process.exit(EXIT_USAGE);
  }
  out.say(`# mixed load: ${PARENTS} parents (think ${THINK_MS} ms) for ${SECONDS} s, without and with ${PHONES} phones uploading every ${REPORT_MS} ms · ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString()}${SMOKE ? " (smoke: no measurement)" : ""}`);
  const dbName = `mixed_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const url = `${PG_BASE}/${dbName}`;
  const db = createDb({ url });
  // The bench signs session cookies with the server's secret (its own env, never the worktree's data/).
  Object.assign(process.env, { SESSION_SECRET: SECRET, NODE_ENV: "production", KIDS_APP_API_KEY: "mixed-bench-kids-app-key", DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "mixed-")) });
  process.env.PUBLIC_URL ??= "http://localhost";
  const phones: MiniPhone[] = [];
  try {
    const fam = await phase("provision", 60_000 + PHONES * 10, async () => {
      await migrateToLatest(db);
      return provision(db);
    });
    const { createSession } = await import("../db/queries/sessions");
    const { sessionCookie } = await import("../core/session-cookie.server");
    const env = { ...process.env, DATABASE_URL: url, REDIS_URL: "", SEED_DEMO: "false", SIMULATE_DEMO_DEVICES: "false", LOG_LEVEL: "error" };
    const server = child([path.resolve("bench/mixed-load.ts"), "--server"], env);
    const { url: base } = await phase("start", 60_000, () => ask<{ url: string }>(server, null, "ready"));
    const wsUrl = base.replace("http", "ws");
    const parents = await Promise.all(
      fam.map(async (f, i) => {
        const phone = new MiniPhone(i, { url: wsUrl });
        phones.push(phone);
        const token = await createSession(db, f.parentId, { idleMinutes: 720, absoluteDays: 7 });
        return { ...f, phone, cookie: (await sessionCookie().serialize(token)).split(";")[0] };
      }),
    );
    await phase("connect-parents", 60_000, async () => {
      const ready = phones.map((p) => p.whenReady());
      phones.forEach((p) => p.connect());
      await Promise.all(ready);
    });
    // Warm-up: every page once.
    await phase("warm-up", 60_000, async () => {
      for (const p of parents.slice(0, 5)) for (const u of [`/kids-device?profileId=${p.kidId}`, `/global-settings?profileId=${p.kidId}&serialNumber=${p.serial}`]) await (await fetch(`${base}${u}`, { headers: { Cookie: p.cookie } })).arrayBuffer();
    });
    const roundMs = SECONDS * 1000 + 30_000;
    const quiet = await phase("baseline", roundMs, () => parentsLoop(base, parents));
    out.say(`without the fleet: page p95 ${pct(quiet.pages, 95).toFixed(1)} ms (${quiet.pages.length} pages), command p99 ${pct(quiet.commands, 99).toFixed(1)} ms (${quiet.commands.length}), failures ${quiet.failures.length}`);

    const clients: ChildProcess[] = [];
    for (let c = 0, from = PARENTS; from < PARENTS + PHONES; c++, from += PHONES_PER_CLIENT) {
      const p = child([path.resolve("bench/fleet-client.ts"), "device", wsUrl, String(from), String(Math.min(PARENTS + PHONES, from + PHONES_PER_CLIENT)), sourceAddress(c)], process.env);
      await ask(p, null, "started");
      clients.push(p);
    }
    const all = <T>(msg: object, key: string) => Promise.all(clients.map((p) => ask<T>(p, msg, key)));
    const t0 = performance.now();
    await phase("connect-fleet", 120_000 + PHONES * 20, () => all({ cmd: "connect" }, "connected"));
    out.say(`fleet: ${PHONES} phones connected in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await all({ cmd: "report", everyMs: REPORT_MS, buckets: BUCKETS }, "reporting");
    // One report interval first, so the uploads run at their steady rate when the parents start.
    await sleep(Math.min(REPORT_MS, 10_000));
    const startedReports = (await all<{ reported: number }>({ cmd: "stop-report" }, "reported")).reduce((n, x) => n + x.reported, 0);
    await all({ cmd: "report", everyMs: REPORT_MS, buckets: BUCKETS }, "reporting");
    const tLoad = performance.now();
    const loaded = await phase("loaded", roundMs, () => parentsLoop(base, parents));
    const reported = (await all<{ reported: number }>({ cmd: "stop-report" }, "reported")).reduce((n, x) => n + x.reported, 0) - startedReports;
    const uploadsPerS = reported / ((performance.now() - tLoad) / 1000);
    out.say(`with the fleet: page p95 ${pct(loaded.pages, 95).toFixed(1)} ms (${loaded.pages.length} pages), command p99 ${pct(loaded.commands, 99).toFixed(1)} ms (${loaded.commands.length}), failures ${loaded.failures.length}; the fleet's uploads acknowledged ${uploadsPerS.toFixed(0)}/s`);
    for (const f of [...new Set([...quiet.failures, ...loaded.failures])].slice(0, 5)) out.say(`  failure: ${f}`);
    await all({ cmd: "close" }, "closed");

    const figures = {
      phones: PHONES,
      parents: PARENTS,
      "loaded.pageP50Ms": pct(loaded.pages, 50),
      "loaded.pageP95Ms": pct(loaded.pages, 95),
      "loaded.commandP99Ms": pct(loaded.commands, 99),
      "loaded.uploadsPerS": uploadsPerS,
      failures: quiet.failures.length + loaded.failures.length,
    };
    const baselines = { "quiet.pageP95Ms": pct(quiet.pages, 95), "quiet.commandP99Ms": pct(quiet.commands, 99) };
    const ratios = { pageP95VsQuiet: figures["loaded.pageP95Ms"] / baselines["quiet.pageP95Ms"], commandP99VsQuiet: figures["loaded.commandP99Ms"] / baselines["quiet.commandP99Ms"] };
    const targets = { "loaded.pageP95Ms": { max: TARGET_PAGE_P95_MS }, "loaded.commandP99Ms": { max: TARGET_COMMAND_P99_MS }, failures: { max: 0 } };
    return out.finish(benchResult({ bench: "mixed-load", figures, baselines, ratios, targets }));
  } finally {
    phones.forEach((p) => p.close());
    children.killAll();
    await db.destroy();
    const c = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await c.end();
  }
}

if (values.server) void serverMain();
else
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      children.killAll();
      process.stderr.write(`mixed-load bench: ${err instanceof PhaseTimeout ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(EXIT_FAILED);
    },
  );
