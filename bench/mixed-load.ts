/**
 * Parents and phones at once (issue 22 item 5), in the production shape, on one PostgreSQL and one Redis:
 *
 *   device service  `server/device.ts` with DEVICE_PROCESSES=`--device-processes` behind one port
 *                   (Node's cluster, decision 005), as deployed;
 *   web tier        `--web-processes` copies of server/web.ts (production build), each running the device service's
 *                   procedures in-process, commands reaching the phones' processes through the outbox and Redis
 *                   (decision 009; `--device-calls http`: DEVICE_SERVICE_URL and DEVICE_SERVICE_KEY pointing at the
 *                   cluster instead); each parent talks to one of them (a load balancer's choice), the page cache
 *                   and sessions work across them (database), live updates through Redis;
 *   parents         `--parents` signed-in parents, each with one kid whose phone (held by this process) is
 *                   connected to the device service, clicking in a loop (bench/mixed-parents.ts): the dashboard,
 *                   the settings page, Lock now — the command timed end to end, from the post on the web tier
 *                   through the device service and Redis to the LOCK frame at the phone;
 *   fleet           `--phones` more phones in client processes (bench/fleet-client.ts), planned over processes
 *                   and 127.0.0.x source addresses by bench/fleet-limits.ts, connected to the device service and
 *                   each uploading usage every `--report-ms` (jittered), every upload waiting for its ack.
 *
 * The parents' loop runs twice for `--seconds`: with only their own phones (the baseline), then with the whole
 * fleet connected and reporting. Before them (and again after the loaded loop, the fleet still uploading), the same
 * clicks against a bare chain of a Lock's shape (bench/bare-chain.ts): its command p50 / p99 are baselines, what the
 * machine's hops cost without our code. Printed: page p95 (and per page), command p99, the fleet's acknowledged
 * uploads/s, failures, and the cores used (web tier, device processes, PostgreSQL, Redis, the phones' clients, this
 * process). Targets: page p95 ≤ 30 ms, command p99 ≤ 100 ms under load (decision 011), no failures. One JSON line last; `--help`.
 *
 * Diagnosis (the web processes print after each loop; not for figures of record): MIXED_QUERY_TIMES=1, each
 * statement's count and total time; MIXED_TRACE=1, every post's timeline and the slowest, and the loop's garbage
 * collections; MIXED_ALLOC=1, the functions that allocated most in the loop (both bench/post-trace.ts).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import { createDb, migrateToLatest } from "../db/index";
import { MiniPhone } from "../device-service/simulator/fleet";
import { WEB_PROCESS_FLAGS } from "../scripts/node-flags.mjs";
import { planFleet, probeLimits, unusableAddresses } from "./fleet-limits";
import { enrolledThisHour } from "./fleet-constants";
import { parentsLoop, pct, provisionFamilies, type Parent, type Round } from "./mixed-parents";
import { bareChainLoop } from "./bare-chain";
import { ask, Children, freePort, missingBuild, phase, PhaseTimeout } from "./phases";
import { cpuMeter, processesNamed, processGroup } from "./proc-cpu";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter } from "./report";

const OPTIONS = {
  phones: { type: "string", default: "50000", smoke: "40", help: "fleet phones connected and uploading (beside the parents' own)" },
  parents: { type: "string", default: "100", smoke: "4", help: "signed-in parents clicking at once" },
  seconds: { type: "string", default: "60", smoke: "2", help: "length of each parents' loop (without, then with the fleet)" },
  "think-ms": {
    type: "string",
    default: "7000",
    smoke: "100",
    help: "a parent's mean pause between clicks (uniform 0.5–1.5×); 1000 is the earlier, machine-gun setting",
  },
  "report-ms": { type: "string", default: "30000", smoke: "500", help: "each fleet phone uploads usage this often (jittered)" },
  buckets: { type: "string", default: "5", smoke: "5", help: "apps per usage upload (≤ 20)" },
  "device-processes": { type: "string", default: "4", smoke: "2", help: "device-service processes behind its one port (DEVICE_PROCESSES)" },
  "web-processes": { type: "string", default: "2", smoke: "1", help: "server/web.ts processes of the web tier" },
  "device-calls": {
    type: "string",
    default: "in-process",
    smoke: "in-process",
    help: "how the web tier calls the device service's procedures: in-process (its own caller, commands reaching the phones' processes through Redis; the production shape, decision 009) or http (DEVICE_SERVICE_URL: the device service as a separate tier)",
  },
  "fleet-nice": {
    type: "string",
    default: "10",
    smoke: "10",
    help: "the fleet's client processes run at this nice level: they stand in for phones, which are not on the server's machine in production, so the servers under test come first (0: the same priority as the servers)",
  },
  "cpu-prof": {
    type: "string",
    default: "",
    smoke: "",
    help: "a directory: write a CPU profile of every web process there (node --cpu-prof)",
  },
  json: { type: "boolean", default: false, help: "print only the result line (JSON)" },
  smoke: { type: "boolean", default: false, help: "tiny sizes: checks the bench runs; no measurement" },
  help: { type: "boolean", short: "h", default: false, help: "print this help and exit" },
} as const;
type Opt = keyof typeof OPTIONS;

const { values } = (() => {
  try {
    return parseArgs({
      options: Object.fromEntries(
        Object.entries(OPTIONS).map(([k, o]) => [k, { type: o.type, ...("short" in o ? { short: o.short } : {}) }]),
      ),
    });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\nRun with --help to see the flags.\n`);
    process.exit(EXIT_USAGE);
  }
})();
if (values.help) {
  const flags = Object.entries(OPTIONS).map(
    ([k, o]) =>
      `  --${k}${o.type === "string" ? " <v>" : ""}`.padEnd(26) +
      o.help +
      (o.type === "string" && o.default ? ` (default ${o.default}; smoke ${o.smoke})` : ""),
  );
  process.stdout.write(
    `Usage: npx remix build && npx tsx bench/mixed-load.ts [flags]\n\nNeeds PostgreSQL ($BENCH_PG, default postgres://postgres@127.0.0.1:5432) and Redis ($BENCH_REDIS, default redis://127.0.0.1:6379).\n\n${flags.join("\n")}\n`,
  );
  process.exit(0);
}
const SMOKE = values.smoke === true;
const str = (k: Opt) =>
  (values[k] as string | undefined) ?? (SMOKE ? (OPTIONS[k] as { smoke: string }).smoke : (OPTIONS[k] as { default: string }).default);
const num = (k: Opt) => Number(str(k));
const PHONES = num("phones");
const PARENTS = num("parents");
const SECONDS = num("seconds");
const THINK_MS = num("think-ms");
const REPORT_MS = num("report-ms");
const BUCKETS = num("buckets");
const DEVICE_PROCESSES = num("device-processes");
const WEB_PROCESSES = num("web-processes");
const DEVICE_CALLS = str("device-calls");
const CPU_PROF = str("cpu-prof");
const FLEET_NICE = num("fleet-nice");
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const REDIS = process.env.BENCH_REDIS ?? "redis://127.0.0.1:6379";
const SECRET = "mixed-bench-secret-mixed-bench-secret-0123";
const SERVICE_KEY = "mixed-bench-device-service-key-0123456789";
// Enrolled at the start of this hour (fleet-constants.ts). (Two days back, the device processes built last week's
// report for every fleet kid at start-up, ~0.7 cores during the baseline.)
const ENROLLED_AT = enrolledThisHour();
const WARM_UP_S = SMOKE ? 1 : 10;
const TARGET_PAGE_P95_MS = 30;
const TARGET_COMMAND_P99_MS = 100; // a Lock that feels instant (decision 011); item 2's 20 ms is the device round trip's

const children = new Children();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A node child with its soft open-files limit raised to the hard one, and IPC. */
function nodeChild(args: string[], env: NodeJS.ProcessEnv, o: { group?: boolean; stdout?: "pipe"; nice?: number } = {}): ChildProcess {
  // `nice` before node starts, so every thread of it (libuv's pool, V8's) inherits the level.
  const cmd = `ulimit -n $(ulimit -Hn) && exec ${o.nice ? `nice -n ${o.nice} ` : ""}"$0" "$@"`;
  const proc = spawn("sh", ["-c", cmd, process.execPath, ...args], {
    stdio: ["ignore", o.stdout ?? process.stderr, "inherit", "ipc"],
    env,
    detached: o.group,
  });
  return children.add(proc, o.group);
}

/** `--cpu-prof <dir>`: node's flags writing a CPU profile of each process there when it exits (cluster workers inherit them). */
const profileFlags = () => (CPU_PROF ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(CPU_PROF)] : []);

/** MIXED_NODE_FLAGS: node's own flags for the web processes (diagnosis, e.g. `--trace-gc`; V8 flags NODE_OPTIONS refuses). */
const webNodeFlags = () => (process.env.MIXED_NODE_FLAGS ?? "").split(" ").filter(Boolean);

/** The device service as deployed: `server/device.ts` with DEVICE_PROCESSES, ready once it says it listens. */
async function startDeviceService(env: NodeJS.ProcessEnv, port: number): Promise<ChildProcess> {
  const proc = nodeChild(
    [...profileFlags(), "--import", "tsx", path.resolve("server/device.ts")],
    { ...env, PORT: String(port), HOST: "127.0.0.1", DEVICE_PROCESSES: String(DEVICE_PROCESSES) },
    { group: true, stdout: "pipe" },
  );
  await new Promise<void>((resolve, reject) => {
    proc.once("exit", (code, sig) => reject(new Error(`the device service exited (${sig ?? `exit ${code}`}) before listening`)));
    createInterface({ input: proc.stdout! }).on("line", (line) => {
      if (line.startsWith("device service listening")) resolve();
      else process.stderr.write(`${line}\n`);
    });
  });
  return proc;
}

async function main() {
  const out = reporter(values.json === true);
  if (
    ![PHONES, PARENTS, SECONDS, THINK_MS, REPORT_MS, BUCKETS, DEVICE_PROCESSES, WEB_PROCESSES].every((n) => Number.isFinite(n) && n > 0) ||
    BUCKETS > 20 ||
    !(Number.isInteger(FLEET_NICE) && FLEET_NICE >= 0 && FLEET_NICE <= 19)
  ) {
    process.stderr.write(
      "--phones, --parents, --seconds, --think-ms, --report-ms, --buckets (≤ 20), --device-processes and --web-processes are positive numbers; --fleet-nice is a whole number from 0 to 19.\n",
    );
    return EXIT_USAGE;
  }
  if (DEVICE_CALLS !== "http" && DEVICE_CALLS !== "in-process") {
    process.stderr.write("--device-calls is http or in-process.\n");
    return EXIT_USAGE;
  }
  const noBuild = missingBuild();
  if (noBuild) {
    process.stderr.write(noBuild);
    return EXIT_FAILED;
  }
  // Every limit before anything starts: the fleet's client processes and source addresses, the device processes' files.
  const limits = probeLimits();
  const { plan, problems } = planFleet({ phones: PHONES + PARENTS, serverProcesses: DEVICE_PROCESSES, clientProcesses: null }, limits);
  problems.push(...(await unusableAddresses(plan.sourceAddresses)).map((a) => `source address ${a} cannot be bound on this machine`));
  if (problems.length) {
    process.stderr.write(
      `The mixed-load bench cannot run with these sizes on this machine:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`,
    );
    return EXIT_FAILED;
  }
  out.say(
    `# mixed load: ${PARENTS} parents (think ${THINK_MS} ms) for ${SECONDS} s, without and with ${PHONES} phones uploading every ${REPORT_MS} ms · web tier ${WEB_PROCESSES} process(es) calling the device service ${DEVICE_CALLS === "http" ? "over HTTP" : "in-process"}, device service ${DEVICE_PROCESSES} processes, ${plan.clientProcesses} client processes, ${plan.sourceAddresses.length} source addresses · ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString()}${SMOKE ? " (smoke: no measurement)" : ""}`,
  );
  const dbName = `mixed_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = `${PG_BASE}/${dbName}`;
  const db = createDb({ url });
  // The bench signs session cookies with the servers' secret (its own env, never the worktree's data/).
  Object.assign(process.env, {
    SESSION_SECRET: SECRET,
    NODE_ENV: "production",
    KIDS_APP_API_KEY: "mixed-bench-kids-app-key",
    // The web filter with the development certificate; several web processes: none starts DoT (no port to share).
    DNS_DEV_CERT: "true",
    DNS_DOT_IN_WEB: "false",
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "mixed-")),
  });
  process.env.PUBLIC_URL ??= "http://localhost";
  const phones: MiniPhone[] = [];
  const web: ChildProcess[] = [];
  let device: ChildProcess | undefined;
  try {
    const tProvision = performance.now();
    const fam = await phase("provision", 60_000 + PHONES * 10, async () => {
      await migrateToLatest(db);
      const f = await provisionFamilies(db, PARENTS, PHONES, ENROLLED_AT);
      // Planner statistics, as autovacuum keeps them on a real server (it is off on some development machines).
      await sql`ANALYZE`.execute(db);
      return f;
    });
    out.say(
      `provisioned ${PARENTS} parents' families and ${PHONES} fleet phones (one kid each) in ${((performance.now() - tProvision) / 1000).toFixed(1)} s`,
    );
    const { createSession } = await import("../db/queries/sessions");
    const { sessionCookie } = await import("../core/session-cookie.server");
    const env = {
      ...process.env,
      DATABASE_URL: url,
      REDIS_URL: REDIS,
      DEVICE_SERVICE_KEY: SERVICE_KEY,
      SEED_DEMO: "false",
      SIMULATE_DEMO_DEVICES: "false",
      LOG_LEVEL: "error",
    };
    if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
    const devicePort = await freePort();
    device = await phase("start-device", 120_000, () => startDeviceService(env, devicePort));
    const bases = await phase("start-web", 120_000, () =>
      Promise.all(
        Array.from({ length: WEB_PROCESSES }, async () => {
          const calls = DEVICE_CALLS === "http" ? { DEVICE_SERVICE_URL: `http://127.0.0.1:${devicePort}/trpc` } : {};
          const p = nodeChild(
            [...profileFlags(), ...WEB_PROCESS_FLAGS, ...webNodeFlags(), "--import", "tsx", path.resolve("bench/mixed-web.ts")],
            { ...env, ...calls },
          );
          web.push(p);
          return (await ask<{ url: string }>(p, null, "ready")).url;
        }),
      ),
    );
    const wsUrl = `ws://127.0.0.1:${devicePort}`;
    const parents: Parent[] = await Promise.all(
      fam.map(async (f, i) => {
        const phone = new MiniPhone(i, { url: wsUrl });
        phones.push(phone);
        const token = await createSession(db, f.parentId, { idleMinutes: 720, absoluteDays: 7 });
        return { ...f, base: bases[i % bases.length], phone, cookie: (await sessionCookie().serialize(token)).split(";")[0] };
      }),
    );
    await phase("connect-parents", 60_000, async () => {
      const ready = phones.map((p) => p.whenReady());
      phones.forEach((p) => p.connect());
      await Promise.all(ready);
    });
    // Warm-up: the parents' loop for a while, unmeasured (compiled code, connection pools, PostgreSQL's caches).
    await phase("warm-up", WARM_UP_S * 1000 + 30_000, () => parentsLoop(parents, { seconds: WARM_UP_S, thinkMs: THINK_MS }));

    // Where the CPU goes, per loop.
    const clients: ChildProcess[] = [];
    const pids = (ps: ChildProcess[]) => ps.map((p) => p.pid!).filter(Boolean);
    const meter = cpuMeter({
      web: () => pids(web),
      device: () => processGroup(device!.pid!),
      postgres: () => processesNamed("postgres"),
      redis: () => processesNamed("redis-server"),
      clients: () => pids(clients),
      bench: () => [process.pid],
    });
    const loop = async (name: string) => {
      await Promise.all(web.map((p) => ask(p, { cmd: "waits" }, "waits")));
      meter.start();
      const r = await phase(name, SECONDS * 1000 + 30_000, () => parentsLoop(parents, { seconds: SECONDS, thinkMs: THINK_MS }));
      const cpu = meter.stop();
      for (const [i, p] of web.entries())
        out.say(
          `  web process ${i + 1} during "${name}": ${JSON.stringify((await ask<{ waits: object }>(p, { cmd: "waits" }, "waits")).waits)}`,
        );
      return { r, cpu };
    };
    const describe = (r: Round, cpu: Record<string, number>) => {
      const byPage = (k: string) =>
        pct(
          r.pages.filter((x) => x.page === k).map((x) => x.ms),
          95,
        ).toFixed(1);
      const cores = Object.entries(cpu)
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(", ");
      return `page p95 ${pct(
        r.pages.map((x) => x.ms),
        95,
      ).toFixed(
        1,
      )} ms (${r.pages.length} pages, ${r.pages.filter((x) => x.cached).length} from the page cache; dashboard ${byPage("dashboard")}, settings ${byPage("settings")}), command p99 ${pct(r.commands, 99).toFixed(1)} ms (p50 ${pct(r.commands, 50).toFixed(1)}; ${r.commands.length}; the post alone p50 ${pct(r.posts, 50).toFixed(1)} / p99 ${pct(r.posts, 99).toFixed(1)} ms), failures ${r.failures.length}; cores used: ${cores}`;
    };
    // The same clicks against a bare chain of a Lock's shape (bench/bare-chain.ts: a bare route, the post's four
    // PostgreSQL waves as `select 1`, a Redis publish, a bare relay's `ws` frame): what the machine's hops cost alone.
    const bareEnv = { ...process.env, BARE_PG_URL: url, BARE_REDIS_URL: REDIS, BARE_CHAIN_ID: dbName };
    const bareProcs = (["server", "relay"] as const).map((mode) =>
      nodeChild(["--import", "tsx", path.resolve("bench/bare-chain.ts"), mode], bareEnv),
    );
    const [serverUrl, relayUrl] = await phase("start-bare-chain", 60_000, () =>
      Promise.all(bareProcs.map(async (p) => (await ask<{ url: string }>(p, null, "ready")).url)),
    );
    const bareLoop = async (name: string, when: string) => {
      const r = await phase(name, SECONDS * 1000 + 30_000, () =>
        bareChainLoop({ serverUrl, relayUrl, parents: PARENTS, seconds: SECONDS, thinkMs: THINK_MS }),
      );
      out.say(
        `a bare chain of a Lock's shape ${when}, the same clicks: command p99 ${pct(r.commands, 99).toFixed(1)} ms (p50 ${pct(r.commands, 50).toFixed(1)}; ${r.commands.length}), failures ${r.failures.length}`,
      );
      for (const f of [...new Set(r.failures)].slice(0, 4)) out.say(`  bare chain failure: ${f}`);
      return r;
    };
    const bare = await bareLoop("bare-chain", "without the fleet");

    const quiet = await loop("baseline");
    out.say(`without the fleet: ${describe(quiet.r, quiet.cpu)}`);

    // The fleet: phones PARENTS… over the planned client processes and source addresses.
    const per = Math.ceil(PHONES / plan.clientProcesses);
    for (let c = 0; c * per < PHONES; c++) {
      const from = PARENTS + c * per;
      const p = nodeChild(
        [
          "--import",
          "tsx",
          path.resolve("bench/fleet-client.ts"),
          "device",
          wsUrl,
          String(from),
          String(Math.min(PARENTS + PHONES, from + per)),
          plan.sourceAddresses.join(","),
        ],
        process.env,
        { nice: FLEET_NICE },
      );
      await ask(p, null, "started");
      clients.push(p);
    }
    const all = <T>(msg: object, key: string) => Promise.all(clients.map((p) => ask<T>(p, msg, key)));
    const t0 = performance.now();
    await phase("connect-fleet", 120_000 + PHONES * 4, () => all({ cmd: "connect" }, "connected"));
    out.say(`fleet: ${PHONES} phones connected in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // The fleet's status rows are new: statistics again, as autovacuum would within a minute.
    await sql`ANALYZE`.execute(db);
    await all({ cmd: "report", everyMs: REPORT_MS, buckets: BUCKETS }, "reporting");
    // One report interval first (each phone's first upload falls somewhere in it), so uploads run at their steady rate.
    await sleep(Math.min(REPORT_MS, 30_000));
    // The usage tables went from empty to a row per phone and app: statistics again, as autovacuum's analyze would
    // (its threshold is 10 % of the rows changed). Without it the planner keeps the empty tables' statistics, and the
    // upload statement's cached plan read all of app_usage_hourly by a sequential scan for each batch: PostgreSQL
    // 1.0–1.2 cores instead of 0.6. A development machine's server may run with autovacuum off.
    await sql`ANALYZE`.execute(db);
    const startedReports = (await all<{ reported: number }>({ cmd: "reported" }, "reported")).reduce((n, x) => n + x.reported, 0);
    const tLoad = performance.now();
    const loaded = await loop("loaded");
    const reported =
      (await all<{ reported: number }>({ cmd: "reported" }, "reported")).reduce((n, x) => n + x.reported, 0) - startedReports;
    const uploadsPerS = reported / ((performance.now() - tLoad) / 1000);
    const setUploadsPerS = (PHONES / REPORT_MS) * 1000;
    out.say(
      `with the fleet: ${describe(loaded.r, loaded.cpu)}; the fleet's uploads acknowledged ${uploadsPerS.toFixed(0)}/s (set: ${setUploadsPerS.toFixed(0)}/s; its clients at nice ${FLEET_NICE})`,
    );
    // The bare chain again, the fleet still uploading: the loaded command's like-for-like baseline.
    const bareLoaded = await bareLoop("bare-chain-loaded", "with the fleet");
    bareProcs.forEach((p) => p.kill());
    await all({ cmd: "stop-report" }, "reported");
    // Each phone waits for its acknowledgement before its next pause, so slow acknowledgements (or clients short of
    // CPU) lower the rate a little (0.97 of the set rate in quiet runs): more than 5 % below, the load was lighter than set.
    if (!SMOKE && uploadsPerS < 0.95 * setUploadsPerS)
      out.say(
        `  the fleet uploaded ${((1 - uploadsPerS / setUploadsPerS) * 100).toFixed(1)} % below its set rate (${uploadsPerS.toFixed(0)} of ${setUploadsPerS.toFixed(0)}/s): the loaded figures are for that lighter load`,
      );
    for (const f of [...new Set([...quiet.r.failures, ...loaded.r.failures])].slice(0, 8)) out.say(`  failure: ${f}`);
    await all({ cmd: "close" }, "closed");

    const pages = (r: Round) => r.pages.map((x) => x.ms);
    const figures: Record<string, number> = {
      phones: PHONES,
      parents: PARENTS,
      thinkMs: THINK_MS,
      webProcesses: WEB_PROCESSES,
      deviceCallsInProcess: DEVICE_CALLS === "in-process" ? 1 : 0,
      deviceProcesses: DEVICE_PROCESSES,
      "loaded.pageP50Ms": pct(pages(loaded.r), 50),
      "loaded.pageP95Ms": pct(pages(loaded.r), 95),
      "loaded.commandP99Ms": pct(loaded.r.commands, 99),
      "loaded.pagesPerS": loaded.r.pages.length / SECONDS,
      "loaded.pagesFromCache": loaded.r.pages.filter((x) => x.cached).length / Math.max(1, loaded.r.pages.length),
      "loaded.uploadsPerS": uploadsPerS,
      setUploadsPerS,
      fleetNice: FLEET_NICE,
      failures: quiet.r.failures.length + loaded.r.failures.length,
      halfDoneCommands: quiet.r.halfDone + loaded.r.halfDone,
      ...Object.fromEntries(Object.entries(quiet.cpu).map(([k, v]) => [`quiet.cores.${k}`, v])),
      ...Object.fromEntries(Object.entries(loaded.cpu).map(([k, v]) => [`loaded.cores.${k}`, v])),
    };
    const baselines = {
      "quiet.pageP95Ms": pct(pages(quiet.r), 95),
      "quiet.commandP99Ms": pct(quiet.r.commands, 99),
      "bare.commandP50Ms": pct(bare.commands, 50),
      "bare.commandP99Ms": pct(bare.commands, 99),
      "loadedBare.commandP50Ms": pct(bareLoaded.commands, 50),
      "loadedBare.commandP99Ms": pct(bareLoaded.commands, 99),
    };
    const ratios = {
      pageP95VsQuiet: figures["loaded.pageP95Ms"] / baselines["quiet.pageP95Ms"],
      commandP99VsQuiet: figures["loaded.commandP99Ms"] / baselines["quiet.commandP99Ms"],
      quietCommandP99VsBare: baselines["quiet.commandP99Ms"] / baselines["bare.commandP99Ms"],
      commandP99VsBare: figures["loaded.commandP99Ms"] / baselines["bare.commandP99Ms"],
      commandP99VsLoadedBare: figures["loaded.commandP99Ms"] / baselines["loadedBare.commandP99Ms"],
    };
    const targets = {
      "loaded.pageP95Ms": { max: TARGET_PAGE_P95_MS },
      "loaded.commandP99Ms": { max: TARGET_COMMAND_P99_MS },
      failures: { max: 0 },
      halfDoneCommands: { max: 0 },
    };
    return out.finish(benchResult({ bench: "mixed-load", figures, baselines, ratios, targets }));
  } finally {
    phones.forEach((p) => p.close());
    // Web processes end cleanly first (their CPU profiles are written on exit), then everything else is killed.
    await Promise.all(
      web
        .filter((p) => p.exitCode === null && p.connected)
        .map((p) => {
          const exited = new Promise((r) => p.once("exit", r));
          p.disconnect();
          return Promise.race([exited, sleep(10_000)]);
        }),
    );
    // The device service stops as on a deploy (SIGTERM: its workers close and exit, writing their profiles).
    if (CPU_PROF && device?.exitCode === null) {
      const exited = new Promise((r) => device!.once("exit", r));
      device.kill("SIGTERM");
      await Promise.race([exited, sleep(20_000)]);
    }
    children.killAll();
    await db.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    children.killAll();
    process.exit(EXIT_FAILED);
  });
}
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    children.killAll();
    process.stderr.write(
      `mixed-load bench: ${err instanceof PhaseTimeout ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(EXIT_FAILED);
  },
);
