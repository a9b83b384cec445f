/**
 * The device fleet in its production shape (issue 22 item 2): --processes device-service processes behind one
 * port (Node's cluster, decision 005) on PostgreSQL and Redis, phones spread over as many client processes and
 * 127.0.0.x source addresses as the limits need. Beside a bare `ws` fleet of the same shape in the same run:
 *   1. memory per idle phone summed over the server processes (target ≤ 1.3× bare);
 *   2. command round trip p99, issued on another process than the phone's (target ≤ 20 ms; bare echo beside);
 *   3. the fleet back after kill -9 of one process and of all (target ≤ 60 s each);
 *   4. commands lost (issued to phones across both kills; target 0).
 * Every limit is checked before anything starts, every phase has a deadline, and the run ends with one JSON
 * line (bench/report.ts). Usage: npm run bench -- [--phones 2000] [--processes 2] … (--help lists the flags).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createDb, migrateToLatest } from "../db/index";
import { createRedisBus } from "../device-service/bus";
import { commander } from "./fleet-commander";
import { enrolledThisHour } from "./fleet-constants";
import { planFleet, probeLimits, unusableAddresses, type Limits } from "./fleet-limits";
import { provisionFamilies } from "./mixed-parents";
import { stormMeter, waitIdle } from "./proc-cpu";
import { ask, Children, freePort, parseDeadlines, phase, PhaseTimeout } from "./phases";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter } from "./report";
import { apartFromPauses, watchGcPauses, type Span } from "./gc-pauses";
import { bundleEntry } from "../scripts/build-device.mjs";

const OPTIONS = {
  phones: { type: "string", default: "2000", help: "idle authenticated phones connected at once" },
  processes: { type: "string", default: "2", help: "device-service processes behind the one port" },
  "client-processes": { type: "string", default: "auto", help: "client processes driving the phones (auto: as the open-file limit needs)" },
  rtt: { type: "string", default: "300", help: "LOCK commands timed for the round trip" },
  deadline: {
    type: "string",
    multiple: true,
    default: [] as string[],
    help: "a phase's deadline in seconds, e.g. --deadline connect=30 (repeatable)",
  },
  json: { type: "boolean", default: false, help: "print only the result line (JSON)" },
  help: { type: "boolean", short: "h", default: false, help: "print this help and exit" },
} as const;
const PHASES = [
  "build",
  "start-bare",
  "connect-bare",
  "echo",
  "kill-all-bare",
  "start-device",
  "connect",
  "rtt",
  "kill-one",
  "kill-all",
  "drain",
] as const;

const USAGE = [
  "Usage: npx tsx bench/device-fleet.ts [flags]   (or: npm run bench -- [flags])",
  "",
  "Device fleet bench: N device-service processes behind one port (PostgreSQL + Redis) beside a bare ws fleet",
  "of the same shape: memory per idle phone, command round trip across processes, kill -9 of one and of all,",
  "commands lost. Needs PostgreSQL ($BENCH_PG, default postgres://postgres@127.0.0.1:5432) and Redis",
  "($BENCH_REDIS, default redis://127.0.0.1:6379).",
  "",
  "Flags:",
  ...Object.entries(OPTIONS).map(([name, o]) => {
    const flag = `${"short" in o ? `-${o.short}, ` : "    "}--${name}${o.type === "string" ? " <n>" : ""}`;
    return `  ${flag.padEnd(30)}${o.help}${o.type === "string" && !("multiple" in o) ? ` (default ${o.default})` : ""}`;
  }),
  `Phases: ${PHASES.join(", ")}.`,
  "",
].join("\n");

function usageError(msg: string): never {
  process.stderr.write(`${msg}\nRun with --help to see the flags.\n`);
  process.exit(EXIT_USAGE);
}

function parseFlags() {
  try {
    return parseArgs({
      options: Object.fromEntries(Object.entries(OPTIONS).map(([k, { help: _help, ...o }]) => [k, o])) as {
        [K in keyof typeof OPTIONS]: Omit<(typeof OPTIONS)[K], "help">;
      },
    }).values;
  } catch (err) {
    usageError(err instanceof Error ? err.message : String(err));
  }
}

const values = parseFlags();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const int = (name: string, v: string, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) usageError(`--${name} takes a whole number of at least ${min} (got '${v}')`);
  return n;
};
const N = int("phones", values.phones, 1);
const P = int("processes", values.processes, 1);
const CLIENTS = values["client-processes"] === "auto" ? null : int("client-processes", values["client-processes"], 1);
const RTT_N = int("rtt", values.rtt, 1);
let deadlines: Record<string, number>;
try {
  deadlines = parseDeadlines(values.deadline, PHASES);
} catch (err) {
  usageError((err as Error).message);
}
const out = reporter(values.json);
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const REDIS = process.env.BENCH_REDIS ?? "redis://127.0.0.1:6379";
const children = new Children();
const killed: number[] = [];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const kib = (b: number) => (b / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * An idle device service still pings every phone once an interval, evenly paced (socket/gateway.ts): 0.05–0.07
 * cores at 20,000 phones over 4 processes (2 × AMD EPYC vCPU). It is idle when it uses no more than that.
 */
const deviceIdleCores = (phones: number) => 0.05 + phones * 3e-6;
/** Default deadlines grow with the sizes; --deadline overrides. */
const deadline = (name: (typeof PHASES)[number]) =>
  deadlines[name] ??
  {
    build: 120e3,
    "start-bare": 120e3,
    "start-device": 120e3,
    "connect-bare": 60e3 + 4 * N,
    connect: 60e3 + 4 * N,
    echo: 30e3 + 100 * RTT_N,
    rtt: 30e3 + 200 * RTT_N,
    "kill-one": 180e3,
    "kill-all": 180e3,
    "kill-all-bare": 180e3,
    drain: 60e3,
  }[name];

/**
 * A node child with its open-files soft limit raised to the hard limit, and IPC. TypeScript runs under tsx; the
 * servers run from their bundle (JavaScript), as the device service runs in production (scripts/build-device.mjs).
 */
function nodeChild(limits: Limits, script: string, args: string[], env: NodeJS.ProcessEnv, group: boolean): ChildProcess {
  const cmd = `ulimit -n ${limits.nofileHard} && exec "$0" "$@"`;
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const proc = spawn("sh", ["-c", cmd, process.execPath, ...loader, "--expose-gc", path.resolve(script), ...args], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env,
    detached: group,
  });
  return children.add(proc, group);
}

/** bench/fleet-server.ts bundled (the "build" phase): both the bare and the device servers start from it. */
let serverScript = "bench/fleet-server.ts";

async function startServer(limits: Limits, mode: "bare" | "device", port: number, env: NodeJS.ProcessEnv) {
  const proc = nodeChild(limits, serverScript, [mode, String(P), String(port)], env, true);
  const ready = await ask<{ pids: number[] }>(proc, null, "ready");
  return { proc, pids: ready.pids, rss: () => ask<{ rss: number }>(proc, { cmd: "rss" }, "rss").then((r) => r.rss) };
}

async function startClients(limits: Limits, mode: "bare" | "device", port: number, plan: ReturnType<typeof planFleet>["plan"]) {
  const per = Math.ceil(N / plan.clientProcesses);
  const procs: ChildProcess[] = [];
  for (let c = 0; c < plan.clientProcesses && c * per < N; c++) {
    const p = nodeChild(
      limits,
      "bench/fleet-client.ts",
      [mode, `ws://127.0.0.1:${port}`, String(c * per), String(Math.min(N, (c + 1) * per)), plan.sourceAddresses.join(",")],
      process.env,
      false,
    );
    await ask(p, null, "started");
    procs.push(p);
  }
  const all = <T>(msg: object, key: string) => Promise.all(procs.map((p) => ask<T>(p, msg, key)));
  return {
    procs,
    all,
    states: async () => {
      const sum = { ready: 0, handshaking: 0, unacknowledged: 0, waiting: 0 };
      for (const r of await all<{ states: typeof sum }>({ cmd: "states" }, "states"))
        for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += r.states[k];
      return sum;
    },
    disconnects: async () =>
      (await all<{ disconnects: number }>({ cmd: "disconnects" }, "disconnects")).reduce((n, r) => n + r.disconnects, 0),
    stop: async () => {
      await all({ cmd: "close" }, "closed");
      for (const p of procs) p.kill("SIGKILL");
    },
  };
}

async function stopServer(s: { proc: ChildProcess }) {
  const exited = new Promise((r) => s.proc.once("exit", r));
  s.proc.send({ cmd: "stop" });
  await exited;
}

/**
 * kill -9 of a server's whole process group, then `restart` (which may do more first), then waits until every phone
 * is back; returns the time from the kill.
 */
async function killAll(
  server: { proc: ChildProcess },
  clients: Awaited<ReturnType<typeof startClients>>,
  restart: () => Promise<{ proc: ChildProcess }>,
  label = "",
): Promise<number> {
  const before = await clients.disconnects();
  const k0 = performance.now();
  const exited = new Promise((r) => server.proc.once("exit", r));
  process.kill(-server.proc.pid!, "SIGKILL");
  await exited;
  const started = await restart();
  process.stderr.write(`  ${label}restarted in ${((performance.now() - k0) / 1000).toFixed(1)} s\n`);
  const meter = stormMeter(
    started.proc.pid!,
    clients.procs.map((p) => p.pid!),
  );
  await backAgain(clients, before, N);
  process.stderr.write(`  ${label}cores used while the phones came back: ${meter()}\n`);
  return performance.now() - k0;
}

/** Waits until the clients noticed `lost` more disconnections than `before`, then until every phone is back. */
async function backAgain(clients: Awaited<ReturnType<typeof startClients>>, before: number, lost: number) {
  let shown = performance.now();
  for (let n = await clients.disconnects(); n < before + lost; n = await clients.disconnects()) {
    // Progress on stderr every 5 s, so a phase that stalls says where (and --json stays one line on stdout).
    if (performance.now() - shown > 5_000) {
      process.stderr.write(`  … ${n - before} of ${lost} phones' disconnections seen\n`);
      shown = performance.now();
    }
    await sleep(50);
  }
  process.stderr.write(`  ${lost} disconnections seen; waiting for every phone to be connected again\n`);
  let done = false;
  const ready = clients.all({ cmd: "ready" }, "ready").finally(() => (done = true));
  // Every 5 s until then, where the phones are (so a stall says whether they hang in the handshake, wait for
  // their status's acknowledgement, or wait to reconnect).
  while (!done) {
    await Promise.race([ready, sleep(5_000)]);
    if (!done) {
      const s = await clients.states();
      process.stderr.write(
        `  … ${s.ready} ready, ${s.handshaking} in the handshake, ${s.unacknowledged} connected without an acknowledged status, ${s.waiting} waiting to reconnect\n`,
      );
    }
  }
  await ready;
}

async function main() {
  const limits = probeLimits();
  const { plan, problems } = planFleet({ phones: N, serverProcesses: P, clientProcesses: CLIENTS }, limits);
  problems.push(...(await unusableAddresses(plan.sourceAddresses)).map((a) => `source address ${a} cannot be bound on this machine`));
  if (problems.length) {
    process.stderr.write(`The fleet bench cannot run with these sizes on this machine:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
    process.exit(EXIT_FAILED);
  }
  out.say(
    `# device fleet bench: ${N} phones over ${P} device processes, ${plan.clientProcesses} client processes, ${plan.sourceAddresses.length} source addresses · open files ${limits.nofileSoft}/${limits.nofileHard} · ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString()}`,
  );

  // A fresh PostgreSQL database and queue prefix of our own.
  const tag = randomBytes(4).toString("hex");
  const dbName = `fleet_bench_${tag}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const db = createDb({ url: `${PG_BASE}/${dbName}` });
  const bus = createRedisBus(REDIS, () => {}, { name: `fleet-bench-${tag}` });
  try {
    await migrateToLatest(db);
    // Phones in families of their own, as real phones are (one kid each, two kids per parent): with the whole fleet
    // under one kid, every phone's status write and every command moved that one kid's view_rev row, and after a
    // kill -9 the reconnecting phones queued on that row lock, a command waiting seconds behind them.
    await provisionFamilies(db, 0, N, enrolledThisHour());
    const env = {
      ...process.env,
      NODE_ENV: "production" as const,
      PUBLIC_URL: "http://localhost",
      DATABASE_URL: `${PG_BASE}/${dbName}`,
      REDIS_URL: REDIS,
      FLEET_QUEUE_PREFIX: `fleet-${tag}`,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "fleet-")),
      SESSION_SECRET: "fleet-bench-secret-fleet-bench-secret-0123",
      KIDS_APP_API_KEY: "fleet-bench-kids-app-key",
      LOG_LEVEL: "error",
    };
    const port = await freePort();

    // The servers' processes start from a bundle, as the production device service does: under tsx, four device
    // processes starting together took 8 s of the way back after kill -9 of all (~3.5 s from the bundle).
    serverScript = await phase("build", deadline("build"), () => bundleEntry("bench/fleet-server.ts", "build/bench"));
    // Baseline: a bare ws fleet of the same shape.
    const bare = await phase("start-bare", deadline("start-bare"), () => startServer(limits, "bare", port, env));
    await sleep(1000);
    const bareBefore = await bare.rss();
    const bareClients = await startClients(limits, "bare", port, plan);
    await phase("connect-bare", deadline("connect-bare"), () => bareClients.all({ cmd: "connect" }, "connected"));
    await waitIdle([bare.proc.pid!, ...bare.pids]);
    const bareAfter = await bare.rss();
    await waitIdle([bare.proc.pid!, ...bare.pids]); // as for the device service below: not in the collection's wake
    const echo = await phase(
      "echo",
      deadline("echo"),
      async () => (await ask<{ echo: number[] }>(bareClients.procs[0], { cmd: "echo", n: RTT_N }, "echo")).echo,
    );
    // The same storm against bare ws servers: what the machine (clients included) allows at all.
    let bareNow = bare;
    const bareKillAllMs = await phase("kill-all-bare", deadline("kill-all-bare"), () =>
      killAll(bareNow, bareClients, async () => (bareNow = await startServer(limits, "bare", port, env)), "bare ws: "),
    );
    await bareClients.stop();
    await stopServer(bareNow);

    // The device service.
    let dev = await phase("start-device", deadline("start-device"), () => startServer(limits, "device", port, env));
    await sleep(1000);
    const devBefore = await dev.rss();
    const clients = await startClients(limits, "device", port, plan);
    const t0 = performance.now();
    await phase("connect", deadline("connect"), () => clients.all({ cmd: "connect" }, "connected"));
    const connectMs = performance.now() - t0;
    const settleMs = await waitIdle([dev.proc.pid!, ...dev.pids], undefined, deviceIdleCores(N));
    const spread = await db
      .selectFrom("device_status")
      .select(["online_process", (eb) => eb.fn.countAll<string>().as("n")])
      .where("online", "=", 1)
      .groupBy("online_process")
      .execute();
    process.stderr.write(
      `  phones per device process: ${spread
        .map((r) => Number(r.n))
        .sort((a, b) => b - a)
        .join(", ")}\n`,
    );
    const devAfter = await dev.rss();
    // The RSS reading runs a full garbage collection in every process (global.gc: 320–400 ms at 12,500 phones each,
    // all four at once); the round trip is timed once they are idle again, not in the collection's wake.
    await waitIdle([dev.proc.pid!, ...dev.pids], undefined, deviceIdleCores(N));
    const perBare = (bareAfter - bareBefore) / N;
    const perDev = (devAfter - devBefore) / N;
    out.say(
      `1. idle phones: ${N} connected in ${(connectMs / 1000).toFixed(1)} s (the service idle ${(settleMs / 1000).toFixed(1)} s later); memory per phone over ${P + 1} processes ${kib(perDev)} KiB vs bare ws ${kib(perBare)} KiB → ${(perDev / perBare).toFixed(2)}× (target ≤ 1.3×)`,
    );

    const cmd = commander(db, bus);
    const rttMeter = stormMeter(
      dev.proc.pid!,
      clients.procs.map((p) => p.pid!),
    );
    // Each round trip's span, beside this process's own GC pauses: a span a pause overlaps carries the measurer's cost.
    const spans: Span[] = [];
    const gc = watchGcPauses();
    const rtt = await phase("rtt", deadline("rtt"), async () => {
      const xs: number[] = [];
      for (let j = 0; j < RTT_N; j++) {
        const ms = await cmd.roundTrip(Math.floor(Math.random() * N));
        const end = performance.now();
        spans.push({ start: end - ms, end });
        xs.push(ms);
      }
      return xs;
    });
    const benchGc = gc.stop();
    const apart = apartFromPauses(spans, benchGc);
    const rttClear = apart.clear.map((x) => x.end - x.start);
    // What else ran meanwhile: an idle fleet's heartbeat, or work left from the connections.
    process.stderr.write(`  cores used during the round trips: ${rttMeter()}\n`);
    out.say(
      `2. command round trip (${RTT_N} LOCKs issued on another process, through Redis): p50 ${pct(rtt, 50).toFixed(2)} ms, p99 ${pct(rtt, 99).toFixed(2)} ms (target p99 ≤ 20 ms); bare ws echo p50 ${pct(echo, 50).toFixed(2)} ms, p99 ${pct(echo, 99).toFixed(2)} ms`,
    );
    process.stderr.write(
      `  the bench's own GC meanwhile: ${benchGc.length} pauses, longest ${Math.max(0, ...benchGc.map((x) => x.end - x.start)).toFixed(1)} ms; ${apart.overlapped} of ${RTT_N} round trips overlapped one; p99 of the others ${rttClear.length ? pct(rttClear, 99).toFixed(2) : "–"} ms\n`,
    );

    // kill -9 of one process: its phones reconnect to the others; commands issued to them meanwhile arrive.
    const victim = dev.pids[0];
    const held = await db
      .selectFrom("device_status")
      .select("device_id")
      .where("online", "=", 1)
      .where("online_process", "like", `%:${victim}:%`)
      .execute();
    const killOneMs = await phase("kill-one", deadline("kill-one"), async () => {
      const before = await clients.disconnects();
      const k0 = performance.now();
      process.kill(victim, "SIGKILL");
      process.stderr.write(`  killed process ${victim}, which held ${held.length} phones\n`);
      for (const h of held.slice(0, 50)) await cmd.issue(Number(h.device_id.replace("fleet", "")));
      process.stderr.write(`  ${Math.min(50, held.length)} commands issued to its phones\n`);
      const meter = stormMeter(
        dev.proc.pid!,
        clients.procs.map((p) => p.pid!),
      );
      await backAgain(clients, before, held.length);
      process.stderr.write(`  cores used while the phones came back: ${meter()}\n`);
      return performance.now() - k0;
    });
    out.say(`3a. kill -9 of one process (${held.length} phones): every phone back in ${(killOneMs / 1000).toFixed(1)} s (target ≤ 60 s)`);

    // kill -9 of every process (primary and workers), then a restart.
    const killAllMs = await phase("kill-all", deadline("kill-all"), () =>
      killAll(dev, clients, async () => {
        for (let j = 0; j < Math.min(50, N); j++) await cmd.issue(Math.floor(Math.random() * N));
        return (dev = await startServer(limits, "device", port, env));
      }),
    );
    out.say(
      `3b. kill -9 of all ${P + 1} processes and a restart: every phone back in ${(killAllMs / 1000).toFixed(1)} s (target ≤ 60 s); bare ws fleet of the same shape ${(bareKillAllMs / 1000).toFixed(1)} s`,
    );

    const lost = await phase("drain", deadline("drain"), async () => {
      while ((await cmd.unacknowledged()) > 0) await sleep(250);
      return 0;
    }).catch(async (err: unknown) => {
      // Still open at the deadline: lost.
      if (err instanceof PhaseTimeout) return cmd.unacknowledged();
      throw err;
    });
    const stats = (await clients.all<{ executed: number; duplicates: number }>({ cmd: "stats" }, "executed")).reduce(
      (a, r) => ({ executed: a.executed + r.executed, duplicates: a.duplicates + r.duplicates }),
      { executed: 0, duplicates: 0 },
    );
    out.say(
      `4. commands: ${cmd.issued.length} issued, ${cmd.issued.length - lost} acknowledged, ${lost} lost (target 0); executed ${stats.executed} times on the phones, ${stats.duplicates} redelivered copies ignored by id`,
    );
    await clients.stop();
    await stopServer(dev);

    process.exitCode = out.finish(
      benchResult({
        bench: "device-fleet",
        figures: {
          phones: N,
          processes: P,
          clientProcesses: plan.clientProcesses,
          sourceAddresses: plan.sourceAddresses.length,
          connectMs,
          memoryPerPhoneKiB: perDev / 1024,
          rttP50Ms: pct(rtt, 50),
          rttP99Ms: pct(rtt, 99),
          // Absent when every round trip overlapped a pause: 0 would read as a perfect figure.
          ...(rttClear.length ? { rttP99MsApartFromBenchGc: pct(rttClear, 99) } : {}),
          rttOverlappingBenchGc: apart.overlapped,
          killOneBackMs: killOneMs,
          killAllBackMs: killAllMs,
          commandsIssued: cmd.issued.length,
          commandsLost: lost,
          commandsExecutedTwice: Math.max(0, stats.executed - cmd.issued.length),
        },
        baselines: {
          bareMemoryPerPhoneKiB: perBare / 1024,
          bareEchoP50Ms: pct(echo, 50),
          bareEchoP99Ms: pct(echo, 99),
          bareKillAllBackMs: bareKillAllMs,
        },
        ratios: { memoryPerPhone: perDev / perBare, killAllBack: killAllMs / bareKillAllMs },
        targets: {
          memoryPerPhone: { max: 1.3 },
          rttP99Ms: { max: 20 },
          killOneBackMs: { max: 60_000 },
          killAllBackMs: { max: 60_000 },
          commandsLost: { max: 0 },
          commandsExecutedTwice: { max: 0 },
        },
      }),
    );
  } finally {
    killed.push(...children.killAll());
    await bus.close();
    await db.destroy();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}

for (const sig of ["SIGINT", "SIGTERM"] as const) {
  process.once(sig, () => {
    const pids = children.killAll();
    process.stderr.write(`stopped by ${sig}; stopped ${pids.length} child processes\n`);
    process.exit(EXIT_FAILED);
  });
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    const pids = [...killed, ...children.killAll()];
    const what = err instanceof PhaseTimeout ? err.message : `the bench failed: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(
      `${what}; stopped ${pids.length} child process${pids.length === 1 ? "" : "es"}${pids.length ? ` (${pids.join(", ")})` : ""}\n`,
    );
    process.exit(EXIT_FAILED);
  },
);
