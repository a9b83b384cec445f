import { createDb, migrateToLatest, sqliteHandleOf, type DB } from "../db/index";
import { startCheckpointer } from "../db/checkpointer";
import { createLocalBus, createRedisBus, type Bus } from "./bus";
import type { ParentIdentity } from "./context";
import { createDeviceCaller, type DeviceCaller } from "./caller";
import { createDeviceRuntime, type DeviceRuntime } from "./runtime";
import { createRemoteDevice } from "./remote";
import { publicOrigin, type Env } from "../core/env.server";
import { createLogger, type Logger } from "../core/log";
import { createLogFileSink, serverLogDir } from "../core/log-files.server";
import { deliverMail } from "../core/mail.server";
import { addToOutbox } from "../db/queries/accounts";

export type { DeviceCaller };

/**
 * Everything stateful lives here and is created once per process: by server.ts (which hands it to Remix
 * through the load context, app/load-context.ts), by device-service/server.ts, or by a test. Route modules
 * never open their own connections.
 */
export interface Services {
  env: Env;
  db: DB;
  bus: Bus;
  log: Logger;
  /** The device service as the given parent: authorisation lives in its procedures. */
  device: (parent: ParentIdentity | null) => DeviceCaller;
  /** The device service's runtime (socket gateway, jobs, push): server.ts mounts it. */
  deviceRuntime: DeviceRuntime;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** Run job workers in this process (default true; `npm run worker` runs them alone). */
  runWorkers?: boolean;
  queuePrefix?: string;
  /** Runs on the migrated database before the jobs start (server.ts seeds the demo family here). */
  prepare?: (db: DB) => Promise<void>;
  /** What this process hears on the Redis bus (device-service/bus.ts): a device process serves no parent, "device". */
  busHears?: "all" | "device";
}

export async function createServices(env: Env, opts: ServiceOptions = {}): Promise<Services> {
  const logFiles = createLogFileSink({ dir: serverLogDir(env.DATA_DIR), processName: `web-${process.pid}` });
  const log = createLogger(env.LOG_LEVEL, { sink: logFiles });
  const db = createDb({
    url: env.databaseKind === "postgres" ? env.DATABASE_URL : env.sqlitePath,
    // A restart, failover or pg_terminate_backend: logged once per connection; the pool reconnects by itself.
    onError: (err) => log("warn", "database connection lost", { error: err.message }),
    namedStatements: env.PG_NAMED_STATEMENTS,
  });
  await migrateToLatest(db);
  // SQLite: WAL checkpoints on a worker thread, not inside the commits of the one thread serving pages and phones.
  const sqlite = sqliteHandleOf(db);
  const checkpointer = sqlite && env.sqlitePath !== ":memory:" ? startCheckpointer(sqlite, { log: (m) => log("warn", m) }) : null;
  await opts.prepare?.(db);
  const bus = env.REDIS_URL ? createRedisBus(env.REDIS_URL, (m) => log("error", m), { hears: opts.busHears }) : createLocalBus();
  const deviceRuntime = await createDeviceRuntime({
    db,
    bus,
    log,
    redisUrl: env.REDIS_URL || undefined,
    queuePrefix: opts.queuePrefix,
    runWorkers: opts.runWorkers,
    publicUrl: publicOrigin(env),
    installRetry: { baseMs: env.INSTALL_RETRY_BASE_MS, maxAttempts: env.INSTALL_RETRY_MAX_ATTEMPTS },
    catalogIconBase: env.CATALOG_ICON_BASE_URL,
    fcm: { projectId: env.FCM_PROJECT_ID, clientEmail: env.FCM_CLIENT_EMAIL, privateKey: env.FCM_PRIVATE_KEY },
    // Report mails go through the one mail adapter (SMTP_URL, else the dev mailbox in the database's outbox).
    reports: { mailer: (mail) => deliverMail({ env, log, keep: (m) => addToOutbox(db, m) }, mail), secret: env.SESSION_SECRET },
  });
  const deps = deviceRuntime.deps;
  return {
    env,
    db,
    bus,
    log,
    deviceRuntime,
    // In-process by default; over HTTP to a separately deployed device service when DEVICE_SERVICE_URL is set.
    device: env.DEVICE_SERVICE_URL ? createRemoteDevice(env.DEVICE_SERVICE_URL, env.DEVICE_SERVICE_KEY) : (parent) => createDeviceCaller({ ...deps, parent }),
    async close() {
      await deviceRuntime.close();
      await bus.close();
      await checkpointer?.close();
      await db.destroy();
      await logFiles.close();
    },
  };
}
