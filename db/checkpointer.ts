import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";

/**
 * SQLite WAL checkpoints off the event loop (issue 22 item 3).
 *
 * By default SQLite checkpoints inside the COMMIT that takes the write-ahead log past 1,000 pages: the committing
 * call copies the log into the database file and syncs both, on the only thread that serves pages and phones.
 * Under a fleet's uploads that was a quarter of the group commit's time (bench/ingest.ts, docs/performance.md).
 * Here the server's connection never checkpoints (`wal_autocheckpoint = 0`); a worker thread with its own
 * connection runs a PASSIVE checkpoint every `intervalMs` — concurrent with the writer (WAL allows it), on the
 * other core. Durability is unchanged: a commit is in the log when it returns, as before; the log is only
 * copied later. Should the worker fail, the connection checkpoints by itself again.
 */
export interface Checkpointer {
  /** Checkpoints run so far, and frames copied (for tests and logs). */
  stats(): { runs: number; frames: number };
  /** Stops the worker after a last checkpoint. */
  close(): Promise<void>;
}

const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.driver);
const db = new SQLite(workerData.file);
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = NORMAL");
let stopping = false;
const once = () => {
  try {
    const [r] = db.pragma("wal_checkpoint(PASSIVE)");
    parentPort.postMessage({ kind: "ran", frames: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ kind: "error", message: String(err && err.message || err) });
  }
};
const timer = setInterval(once, workerData.intervalMs);
parentPort.on("message", (m) => {
  if (m !== "stop" || stopping) return;
  stopping = true;
  clearInterval(timer);
  once();
  db.close();
  parentPort.close();
});
`;

/** SQLite's own default: the connection checkpoints at the commit that takes the log past this many pages. */
const SELF_CHECKPOINT_PAGES = 1_000;

export function startCheckpointer(
  handle: SQLite.Database,
  opts: { intervalMs?: number; log?: (message: string) => void } = {},
): Checkpointer {
  const counts = { runs: 0, frames: 0 };
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: {
      file: handle.name,
      driver: createRequire(import.meta.url).resolve("better-sqlite3"),
      intervalMs: opts.intervalMs ?? 1_000,
    },
  });
  worker.unref(); // never what keeps a process alive: the log is durable without the last checkpoint
  handle.pragma("wal_autocheckpoint = 0");
  let failed = false;
  const checkpointBySelf = () => {
    if (handle.open) handle.pragma(`wal_autocheckpoint = ${SELF_CHECKPOINT_PAGES}`);
  };
  const fallBack = (why: string) => {
    if (failed) return;
    failed = true;
    opts.log?.(`sqlite checkpointer stopped (${why}); the connection checkpoints by itself again`);
    checkpointBySelf();
  };
  worker.on("message", (m: { kind: "ran"; frames: number } | { kind: "error"; message: string }) => {
    if (m.kind === "ran") {
      counts.runs++;
      counts.frames += Math.max(0, m.frames);
    } else opts.log?.(`sqlite checkpoint failed: ${m.message}`);
  });
  worker.on("error", (err) => fallBack(err.message));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  let closing = false;
  exited.then(() => {
    if (!closing) fallBack("the worker exited");
  });
  return {
    stats: () => ({ ...counts }),
    async close() {
      closing = true;
      worker.ref(); // held until it has stopped (unreferenced, an otherwise idle process would end before that)
      worker.postMessage("stop");
      await exited;
      checkpointBySelf();
    },
  };
}
