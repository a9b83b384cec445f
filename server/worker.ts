/**
 * `npm run worker`: the job workers alone (BullMQ on REDIS_URL), for deployments that run them apart from
 * the web processes. Graceful on SIGTERM/SIGINT: workers finish the job in hand, then connections close.
 */
import { env, publicOrigin } from "../core/env.server";
import { createLogger } from "../core/log";
import { createLogFileSink, serverLogDir } from "../core/log-files.server";
import { deliverMail, type Mail } from "../core/mail.server";
import { addToOutbox } from "../db/queries/accounts";
import { createDb, migrateToLatest } from "../db/index";
import { createRedisBus } from "../device-service/bus";
import { createFcmTransport, createLoggingTransport } from "../device-service/commands/push";
import type { DeviceServiceDeps } from "../device-service/context";
import { createBullRunner } from "./bullmq";
import { createProcessors } from "./processors/index";
import { recoverJobs } from "./recover";

async function main() {
  const e = env();
  const logFiles = createLogFileSink({ dir: serverLogDir(e.DATA_DIR), processName: `worker-${process.pid}` });
  const log = createLogger(e.LOG_LEVEL, { sink: logFiles });
  if (!e.REDIS_URL) {
    console.error("npm run worker needs REDIS_URL (BullMQ). Without it, `npm start` runs the jobs in-process.");
    process.exit(1);
  }
  const db = createDb({ url: e.databaseKind === "postgres" ? e.DATABASE_URL : e.sqlitePath, onError: (err) => log("warn", "database connection lost", { error: err.message }), namedStatements: e.PG_NAMED_STATEMENTS });
  await migrateToLatest(db);
  const bus = createRedisBus(e.REDIS_URL, (m) => log("error", m));
  const jobs = createBullRunner({ redisUrl: e.REDIS_URL, log });
  const push = e.FCM_PROJECT_ID && e.FCM_CLIENT_EMAIL && e.FCM_PRIVATE_KEY ? createFcmTransport({ projectId: e.FCM_PROJECT_ID, clientEmail: e.FCM_CLIENT_EMAIL, privateKey: e.FCM_PRIVATE_KEY }, log) : createLoggingTransport(log);
  // No sockets here: commands reach phones through the bus (to whichever process holds them) or push.
  const reports = { mailer: (mail: Mail) => deliverMail({ env: e, log, keep: (m) => addToOutbox(db, m) }, mail), secret: e.SESSION_SECRET };
  const deps: DeviceServiceDeps = { db, bus, log, jobs, push, publicUrl: publicOrigin(e), reports, installRetry: { baseMs: e.INSTALL_RETRY_BASE_MS, maxAttempts: e.INSTALL_RETRY_MAX_ATTEMPTS } };
  await jobs.start(createProcessors(deps));
  const recovered = await recoverJobs(deps);
  log("info", "worker started", { queues: (await jobs.counts()).map((c) => c.name), ...recovered });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log("info", "worker shutting down", { signal });
    await jobs.close();
    await bus.close();
    await db.destroy();
    await logFiles.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
