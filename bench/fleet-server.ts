/**
 * Child process of bench/device-fleet.ts: N server processes behind one port with Node's cluster, as the
 * device service runs with DEVICE_PROCESSES=N (device-service/cluster.ts). Mode "device": every worker is
 * the real device service (startDeviceServer) on the bench's PostgreSQL and Redis (env from the parent).
 * Mode "bare": every worker is a bare `ws` server that acks child_status and echoes the rest (the baseline
 * of the same shape). IPC with the parent: {cmd:"rss"} → {rss, perProcess}; {cmd:"pids"} → {pids}.
 * Started in its own process group, so the parent can kill -9 the primary and all its workers at once.
 */
import cluster from "node:cluster";
import { createServer } from "node:http";
import { WebSocketServer } from "ws";
import { listenTogether, runDeviceCluster } from "../device-service/cluster";

const [mode, procArg, portArg] = process.argv.slice(2);
const rss = () => {
  global.gc?.();
  return process.memoryUsage().rss;
};

async function worker() {
  const port = Number(portArg);
  if (mode === "bare") {
    const server = createServer();
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, clientTracking: false });
    server.on("upgrade", (req, socket, head) => {
      socket.on("error", () => {});
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on("error", () => {});
        ws.on("message", (d) => ws.send(d.toString().replace('"child_status"', '"ack"')));
      });
    });
    // Like the device service's, the bare cluster's first workers listen together.
    await listenTogether();
    server.listen(port, "127.0.0.1");
  } else {
    const { startDeviceServer } = await import("../server/device");
    const s = await startDeviceServer({ port, host: "127.0.0.1", services: { queuePrefix: process.env.FLEET_QUEUE_PREFIX } });
    process.once("SIGTERM", () => void s.close().then(() => process.exit(0)));
  }
  process.on("message", (m: { cmd: string; id: number }) => {
    if (m.cmd === "rss") process.send?.({ id: m.id, rss: rss() });
  });
}

async function primary() {
  const c = await runDeviceCluster({
    processes: Number(procArg),
    log: () => {},
    respawnDelayMs: 200,
    graceMs: 5_000,
    scheduling: process.env.DEVICE_CLUSTER_SCHEDULING === "rr" ? "rr" : "none",
  });
  let seq = 0;
  const askRss = () =>
    Promise.all(
      c.workers().map(
        (w) =>
          new Promise<number>((resolve) => {
            const id = ++seq;
            const on = (m: { id?: number; rss?: number }) => {
              if (m.id === id) {
                w.off("message", on);
                resolve(m.rss ?? 0);
              }
            };
            w.on("message", on);
            w.send({ cmd: "rss", id });
          }),
      ),
    );
  process.on("message", async (m: { cmd: string }) => {
    if (m.cmd === "rss") {
      const per = [rss(), ...(await askRss())];
      process.send?.({ rss: per.reduce((a, b) => a + b, 0), perProcess: per });
    }
    if (m.cmd === "pids") process.send?.({ pids: c.workers().map((w) => w.process.pid) });
    if (m.cmd === "stop") {
      await c.stop();
      process.exit(0);
    }
  });
  // The bench went away (even by kill -9): nothing of ours stays behind.
  process.on("disconnect", () => {
    for (const w of c.workers()) w.process.kill("SIGKILL");
    process.exit(1);
  });
  // Workers replaced after a kill -9 are announced so the parent can count them.
  c.onRespawn((w) => process.send?.({ respawned: w.process.pid }));
  process.send?.({ ready: true, pids: c.workers().map((w) => w.process.pid) });
}

if (cluster.isPrimary)
  void primary().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
else void worker();
