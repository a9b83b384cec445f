/**
 * A cluster for device-service/cluster-listen.test.ts: `node --import tsx device-service/cluster-listen.testing.ts
 * <port> <delays ms, comma-separated>`. The k-th worker forked waits its delay (a slow start), then listenTogether(), then
 * listens; each reports the moment it listened. The primary prints one JSON line per event on stdout:
 * {listened: pid, at, respawn} and, once all first workers listen, {ready: [pids]}. A line "kill <pid>" on stdin
 * kills that worker with SIGKILL (its replacement must listen without waiting for anyone).
 */
import cluster from "node:cluster";
import { createServer } from "node:http";
import { createInterface } from "node:readline";
import { listenTogether, runDeviceCluster } from "./cluster";

const [portArg, delaysArg] = process.argv.slice(2);
const delays = delaysArg.split(",").map(Number);
const say = (m: object) => process.stdout.write(`${JSON.stringify(m)}\n`);

if (cluster.isPrimary) {
  cluster.on("message", (w, m: { listenedAt?: number }) => {
    if (m.listenedAt) say({ listened: w.process.pid, at: m.listenedAt, respawn: w.id > delays.length });
  });
  const c = await runDeviceCluster({ processes: delays.length, log: () => {}, respawnDelayMs: 50, graceMs: 2_000 });
  say({ ready: c.workers().map((w) => w.process.pid) });
  createInterface({ input: process.stdin }).on("line", (line) => {
    const [cmd, pid] = line.split(" ");
    if (cmd === "kill") process.kill(Number(pid), "SIGKILL");
  });
} else {
  // Worker ids count from 1 in fork order; replacements come after the first ones and start without delay.
  await new Promise((r) => setTimeout(r, delays[cluster.worker!.id - 1] ?? 0));
  await listenTogether();
  const server = createServer((_req, res) => res.end("ok"));
  server.listen(Number(portArg), "127.0.0.1", () => process.send?.({ listenedAt: Date.now() }));
}
