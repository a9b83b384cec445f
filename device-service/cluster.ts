import cluster, { type Worker } from "node:cluster";

/**
 * Several device-service processes behind one port (issue 22, decision 005): this process is Node's cluster
 * primary; it forks the workers, which all listen on the same port; each new connection goes to the worker that
 * accepts it first from the kernel's queue (or, with round robin, the primary deals them: ClusterOptions.scheduling).
 * The primary holds no open file per phone. A worker that dies is replaced; its phones reconnect to the others
 * meanwhile. Commands and presence cross processes through Redis (device-service/bus.ts, device-service/socket/presence.ts).
 */
export interface ClusterOptions {
  processes: number;
  log: (msg: string) => void;
  /** Runs once before the first worker starts (the migrations, so workers never race on them). */
  prepare?: () => Promise<void>;
  /** The worker's entry (default: this process's own script) and its arguments. */
  exec?: string;
  args?: string[];
  /** Extra environment for every worker. */
  env?: Record<string, string>;
  /** Delay before a dead worker is replaced (default 500 ms). */
  respawnDelayMs?: number;
  /** How long `stop()` waits for a worker's graceful shutdown before SIGKILL (default 15 s). */
  graceMs?: number;
  /**
   * Who hands out connections (default "none"). "none": the workers accept from the shared socket themselves; a
   * connection waits in the kernel's accept queue (LISTEN_BACKLOG, device-service/admission.ts), which has a bound:
   * beyond it the kernel drops the handshake and the phone's own retransmission brings it back. The spread is
   * uneven (each worker stops accepting at its open-file cap). "rr": the primary accepts every connection and hands
   * it to the next worker in turn (an even spread), one at a time per worker, and its queue has no bound: after
   * kill -9 of all at 50,000 phones it grew deeper than the phones' 10 s handshake timeout and the fleet never came
   * back (decision 005 has the figures).
   */
  scheduling?: "rr" | "none";
}

/** The messages of the start-up barrier between the primary and its first workers. */
const READY_TO_LISTEN = "device-cluster:ready-to-listen";
const LISTEN = "device-cluster:listen";
/** Set in the environment of the first workers (not of replacements): they listen together. */
const TOGETHER_ENV = "DEVICE_CLUSTER_LISTEN_TOGETHER";
/** A first worker that is not ready by then does not hold the others back any longer. */
export const LISTEN_TOGETHER_TIMEOUT_MS = 30_000;

/**
 * Called by a worker just before it listens. The first workers of a cluster listen together: with round robin,
 * the primary deals connections only to the workers already listening, so after kill -9 of all, the worker that
 * started first took every phone waiting to reconnect until the others were up — thousands of handshakes queued
 * in one process, many past the phones' 10 s handshake timeout, each then retried (a 20,000-phone storm took
 * 41–55 s instead of 25–28 s; decision 005). A replacement of one dead worker listens at once.
 */
export function listenTogether(): Promise<void> {
  if (!cluster.isWorker || process.env[TOGETHER_ENV] !== "1" || !process.send) return Promise.resolve();
  return new Promise((resolve) => {
    const go = (m: unknown) => {
      if ((m as { type?: string })?.type !== LISTEN) return;
      process.off("message", go);
      resolve();
    };
    process.on("message", go);
    process.send!({ type: READY_TO_LISTEN });
  });
}

export interface DeviceCluster {
  /** The workers running now. */
  workers(): Worker[];
  /** Resolves when a worker replacing a dead one is listening (tests and the bench wait on it). */
  onRespawn(listener: (w: Worker) => void): void;
  stop(): Promise<void>;
}

export async function runDeviceCluster(o: ClusterOptions): Promise<DeviceCluster> {
  if (!cluster.isPrimary) throw new Error("runDeviceCluster runs in the primary process only");
  // The kernel hands out connections unless round robin is asked for (Node's own default on Linux is round robin).
  cluster.schedulingPolicy = o.scheduling === "rr" ? cluster.SCHED_RR : cluster.SCHED_NONE;
  if (o.exec) cluster.setupPrimary({ exec: o.exec, args: o.args ?? [] });
  await o.prepare?.();
  let stopping = false;
  const respawned: ((w: Worker) => void)[] = [];

  // The first workers listen together (listenTogether): each says when it is ready; all are told to listen once
  // every one is ready, one has failed, or the timeout has passed.
  const waiting = new Set<Worker>();
  let together = false;
  const releaseAll = () => {
    if (together) return;
    together = true;
    for (const w of waiting) if (!w.isDead()) w.send({ type: LISTEN });
  };
  const releaseTimer = setTimeout(releaseAll, LISTEN_TOGETHER_TIMEOUT_MS);
  releaseTimer.unref();
  let firstReady = 0;

  const fork = (respawn: boolean) =>
    new Promise<Worker>((resolve, reject) => {
      const w = cluster.fork({ ...o.env, DEVICE_PROCESSES: "1", [TOGETHER_ENV]: respawn ? "0" : "1" });
      if (!respawn) {
        waiting.add(w);
        w.on("message", (m: { type?: string }) => {
          if (m?.type !== READY_TO_LISTEN) return;
          if (together) w.send({ type: LISTEN });
          else if (++firstReady === o.processes) releaseAll();
        });
      }
      const early = (code: number | null, signal: string | null) => {
        // The others are not held back by one that died starting.
        releaseAll();
        reject(new Error(`a device process exited before listening (${signal ?? `exit ${code}`})`));
      };
      w.once("exit", early);
      w.once("listening", () => {
        w.off("exit", early);
        w.once("exit", (code, signal) => {
          if (stopping) return;
          o.log(`device process ${w.process.pid} stopped (${signal ?? `exit ${code}`}); starting another`);
          setTimeout(() => {
            if (stopping) return;
            fork(true).then(
              (nw) => respawned.forEach((l) => l(nw)),
              (err: unknown) => o.log(`a replacement device process failed: ${err instanceof Error ? err.message : String(err)}`),
            );
          }, o.respawnDelayMs ?? 500).unref();
        });
        if (respawn) o.log(`device process ${w.process.pid} listening`);
        resolve(w);
      });
    });

  const first = await Promise.allSettled(Array.from({ length: o.processes }, () => fork(false)));
  clearTimeout(releaseTimer);
  waiting.clear();
  const failed = first.find((r) => r.status === "rejected");
  if (failed) {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGKILL");
    throw (failed as PromiseRejectedResult).reason;
  }

  return {
    workers: () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead()),
    onRespawn: (l) => void respawned.push(l),
    async stop() {
      stopping = true;
      const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
      await Promise.all(
        all.map(
          (w) =>
            new Promise<void>((resolve) => {
              const kill = setTimeout(() => w.process.kill("SIGKILL"), o.graceMs ?? 15_000);
              w.once("exit", () => {
                clearTimeout(kill);
                resolve();
              });
              w.process.kill("SIGTERM");
            }),
        ),
      );
    },
  };
}
