/**
 * Device fleet benchmarks, each beside a baseline measured in the same run:
 *   1. idle authenticated phones: server RSS per socket vs a bare `ws` server with the same clients;
 *   2. command round trip (issue → phone → acknowledgement stored) with the fleet connected, vs a bare ws echo;
 *   3. usage ingest on SQLite (events/s) vs raw better-sqlite3 upserts, with a kill -9 of the server in the
 *      middle and a zero-loss check (phones keep every unacknowledged upload and resend it);
 *   4. reconnect storm: the whole fleet back after a server kill -9 + restart (backoff with full jitter).
 * Usage: npx tsx bench/device-fleet.ts [--sockets 2000] [--rtt 300] [--ingest-phones 40] [--ingest-seconds 10] [--buckets 50]
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import SQLite from "better-sqlite3";
import WebSocket from "ws";

const { values } = parseArgs({
  options: {
    sockets: { type: "string", default: "2000" },
    rtt: { type: "string", default: "300" },
    "ingest-phones": { type: "string", default: "40" },
    "ingest-seconds": { type: "string", default: "10" },
    buckets: { type: "string", default: "50" },
  },
});
const N = Number(values.sockets);
const RTT_N = Number(values.rtt);
const ING_P = Math.min(Number(values["ingest-phones"]), N);
const ING_S = Number(values["ingest-seconds"]);
const BUCKETS = Number(values.buckets);
const dir = mkdtempSync(path.join(os.tmpdir(), "fleet-"));
const dbPath = path.join(dir, "fleet.sqlite");

const cred = (i: number) => `bench${String(i).padStart(6, "0")}.s${i}`;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Child {
  proc: ChildProcess;
  port: number;
  ask<T>(msg: object, key: string): Promise<T>;
}

function startChild(mode: "device" | "bare", port = 0): Promise<Child> {
  const proc = fork(path.resolve("bench/device-fleet-server.ts"), [mode, String(N), dbPath, String(port)], { execArgv: ["--import", "tsx", "--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    proc.once("exit", (c) => reject(new Error(`child exited ${c}`)));
    proc.once("message", (m: { port: number }) => {
      proc.removeAllListeners("exit");
      resolve({
        proc,
        port: m.port,
        ask: (msg, key) =>
          new Promise((res) => {
            const on = (r: Record<string, unknown>) => {
              if (key in r) {
                proc.off("message", on);
                res(r as never);
              }
            };
            proc.on("message", on);
            proc.send(msg);
          }),
      });
    });
  });
}

/** A minimal phone: auth header, child_status first, acks commands, keeps unacknowledged frames and resends them. */
class MiniPhone {
  ws?: WebSocket;
  ready = false;
  stopped = false;
  pending = new Map<string, string>();
  waiters = new Map<string, () => void>();
  attempts = 0;
  seq = 0;
  onReady?: () => void;
  constructor(
    public i: number,
    public port: number,
    public bare = false,
  ) {}
  connect() {
    const ws = new WebSocket(`ws://127.0.0.1:${this.port}/device-socket`, { headers: this.bare ? {} : { Authorization: `Bearer ${cred(this.i)}` }, perMessageDeflate: false });
    this.ws = ws;
    ws.on("open", () => ws.send(JSON.stringify({ event: "child_status", id: `s${this.i}-${++this.seq}`, data: { batteryPercentage: 80, wifiConnected: true, kidsAppStatus: "Healthy", appVersion: "3.8.1", protectionState: true } })));
    ws.on("message", (raw) => {
      const f = JSON.parse(raw.toString()) as { event: string; id: string };
      if (f.event === "ack" && f.id.startsWith("s")) {
        if (!this.ready) {
          this.ready = true;
          this.attempts = 0;
          for (const frame of this.pending.values()) ws.send(frame);
          this.onReady?.();
        }
      } else if (f.event === "ack") {
        this.pending.delete(f.id);
        this.waiters.get(f.id)?.();
        this.waiters.delete(f.id);
      } else if (f.event === "command") {
        ws.send(JSON.stringify({ event: "command_ack", id: `c${this.i}-${++this.seq}`, data: { commandId: f.id, status: "acknowledged" } }));
      } else if (f.event === "echo") this.waiters.get(f.id)?.();
    });
    ws.on("close", () => {
      this.ready = false;
      if (!this.stopped) setTimeout(() => this.connect(), Math.random() * Math.min(8_000, 250 * 2 ** this.attempts++));
    });
    ws.on("error", () => {});
  }
  whenReady() {
    return this.ready ? Promise.resolve() : new Promise<void>((r) => (this.onReady = r));
  }
  send(event: string, data: unknown): Promise<void> {
    const id = `m${this.i}-${++this.seq}`;
    const frame = JSON.stringify({ event, id, data });
    this.pending.set(id, frame);
    const p = new Promise<void>((r) => this.waiters.set(id, r));
    if (this.ready) this.ws!.send(frame);
    return p;
  }
  close() {
    this.stopped = true;
    this.ws?.terminate();
  }
}

async function connectAll(port: number, bare: boolean): Promise<MiniPhone[]> {
  const phones: MiniPhone[] = [];
  for (let i = 0; i < N; i += 200) {
    const batch = Array.from({ length: Math.min(200, N - i) }, (_, k) => new MiniPhone(i + k, port, bare));
    const ready = batch.map((p) => p.whenReady());
    batch.forEach((p) => p.connect());
    await Promise.all(ready);
    phones.push(...batch);
  }
  return phones;
}

async function main() {
  console.log(`# device fleet bench: ${N} sockets, ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, ${new Date().toISOString()}`);

  // 1. RSS: bare ws baseline, then the device service.
  const bare = await startChild("bare");
  const bareBefore = (await bare.ask<{ rss: number }>({ cmd: "rss" }, "rss")).rss;
  let phones = await connectAll(bare.port, true);
  await sleep(1000);
  const bareAfter = (await bare.ask<{ rss: number }>({ cmd: "rss" }, "rss")).rss;
  // Bare ws echo round trip (baseline for 2).
  const echo: number[] = [];
  for (let j = 0; j < RTT_N; j++) {
    const p = phones[Math.floor(Math.random() * N)];
    const id = `e${j}`;
    const t0 = performance.now();
    const back = new Promise<void>((r) => p.waiters.set(id, r));
    p.ws!.send(JSON.stringify({ event: "child_status", id, data: {} }).replace('"child_status"', '"echo"'));
    await back;
    echo.push(performance.now() - t0);
  }
  phones.forEach((p) => p.close());
  bare.proc.send({ cmd: "stop" });

  const dev = await startChild("device");
  const devBefore = (await dev.ask<{ rss: number }>({ cmd: "rss" }, "rss")).rss;
  const t0 = Date.now();
  phones = await connectAll(dev.port, false);
  const connectMs = Date.now() - t0;
  await sleep(1000);
  const devAfter = (await dev.ask<{ rss: number; sockets: number }>({ cmd: "rss" }, "rss"));
  const perBare = (bareAfter - bareBefore) / N;
  const perDev = (devAfter.rss - devBefore) / N;
  console.log(`1. idle phones: ${devAfter.sockets} authenticated in ${connectMs} ms; RSS/socket device service ${(perDev / 1024).toFixed(1)} KiB vs bare ws ${(perBare / 1024).toFixed(1)} KiB → ${(perDev / perBare).toFixed(2)}× (target ≤ 1.3×); totals ${mb(devAfter.rss)} MB vs ${mb(bareAfter)} MB`);

  // 2. Command round trip with the fleet connected.
  const { rtt } = await dev.ask<{ rtt: number[] }>({ cmd: "rtt", n: RTT_N, connected: N }, "rtt");
  console.log(`2. command round trip (${RTT_N} LOCKs, ${N} connected): p50 ${pct(rtt, 50).toFixed(2)} ms, p99 ${pct(rtt, 99).toFixed(2)} ms (target p99 ≤ 20 ms); bare ws echo p50 ${pct(echo, 50).toFixed(2)} ms, p99 ${pct(echo, 99).toFixed(2)} ms`);

  // 3. Usage ingest with a kill -9 half way, then 4. the reconnect storm of the whole fleet.
  const ingest = phones.slice(0, ING_P);
  let sent = 0;
  let acked = 0;
  let stop = false;
  const base = Date.UTC(2025, 0, 1);
  const loops = ingest.map(async (p, k) => {
    let h = 0;
    while (!stop) {
      const buckets = Array.from({ length: BUCKETS }, (_, b) => ({ packageName: `com.bench.app${b}`, hour: new Date(base + (k * 100_000 + h) * 3_600_000).toISOString(), minutes: 1 + ((h + b) % 59) }));
      h++;
      sent += BUCKETS;
      await p.send("usage", { buckets });
      acked += BUCKETS;
    }
  });
  const ingestStart = Date.now();
  await sleep((ING_S * 1000) / 2);
  const ackedBeforeKill = acked;
  const firstHalfMs = Date.now() - ingestStart;
  dev.proc.kill("SIGKILL");
  await new Promise((r) => dev.proc.once("exit", r));
  let dev2 = await startChild("device", dev.port);
  await sleep((ING_S * 1000) / 2);
  stop = true;
  await Promise.all(loops);
  // 4. The storm on its own (no ingest running): kill -9, restart, every phone back.
  await Promise.all(phones.map((p) => p.whenReady()));
  dev2.proc.kill("SIGKILL");
  await new Promise((r) => dev2.proc.once("exit", r));
  const killedAt = Date.now();
  dev2 = await startChild("device", dev.port);
  const restartMs = Date.now() - killedAt;
  await Promise.all(phones.map((p) => p.whenReady()));
  const stormMs = Date.now() - killedAt;
  console.log(`4. reconnect storm: ${N} phones back ${stormMs} ms after kill -9 (server restart incl. tsx start-up ${restartMs} ms; backoff full jitter, cap 8 s; target 10,000 within 60 s)`);
  const rows = (new SQLite(dbPath, { readonly: true }).prepare("select count(*) as n from app_usage_hourly").get() as { n: number }).n;
  const rate = ackedBeforeKill / (firstHalfMs / 1000);

  // Baseline: raw better-sqlite3 upserts of the same shape (no daily rollup, no socket, no validation).
  const raw = new SQLite(path.join(dir, "raw.sqlite"));
  raw.pragma("journal_mode = WAL");
  raw.pragma("synchronous = NORMAL");
  raw.exec("create table h (device_id text, package_name text, hour text, minutes int, primary key (device_id, hour, package_name))");
  const up = raw.prepare("insert into h values (?, ?, ?, ?) on conflict do update set minutes = excluded.minutes");
  const rawStart = performance.now();
  let rawN = 0;
  while (performance.now() - rawStart < 2000) {
    const batch = raw.transaction(() => {
      for (let b = 0; b < BUCKETS; b++) up.run("d", `p${b}`, new Date(base + rawN * 3_600_000).toISOString(), 5);
    });
    batch();
    rawN++;
  }
  const rawRate = (rawN * BUCKETS) / ((performance.now() - rawStart) / 1000);
  console.log(`3. usage ingest: ${Math.round(rate)} events/s sustained over the socket on SQLite (${ING_P} phones × ${BUCKETS}-bucket uploads; target ≥ 5,000) vs raw better-sqlite3 upserts ${Math.round(rawRate)} events/s; kill -9 mid-run: ${sent} events sent, ${acked} acknowledged, ${rows} stored → ${sent === rows && acked === rows ? "zero loss" : `LOSS ${sent - rows}`}`);

  phones.forEach((p) => p.close());
  dev2.proc.send({ cmd: "stop" });
  await sleep(500);
  process.exit(0);
}

void main();
