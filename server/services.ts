import { createDb, migrateToLatest, sqliteHandleOf, type DB } from "../db/index";
import { syncCuratedLists } from "../web-filter/lists/curated-sync";
import { startCheckpointer } from "../db/checkpointer";
import { addToOutbox } from "../db/queries/accounts";
import { prepareDataDir, publicOrigin, type Env } from "../core/env.server";
import type { AlertDelivery } from "../core/alert-events";
import { createLogger, throttledLog, type Logger } from "../core/log";
import { privateDnsDomainFromEnv } from "../core/private-dns";
import { createLogFileSink, serverLogDir } from "../core/log-files.server";
import { deliverMail } from "../core/mail.server";
import { cachedVapidKeys } from "../core/vapid.server";
import { mailboxAvailable } from "../core/mailbox";
import type { JobRunner } from "../core/job-queues";
import { createLocalBus, createRedisBus, type Bus } from "../device-service/bus";
import { createDeviceCaller, type DeviceCaller } from "../device-service/caller";
import type { DeviceServiceDeps, ParentIdentity } from "../device-service/context";
import { createRemoteDevice } from "../device-service/remote";
import { createDeviceDeps, createDeviceRuntime, type DeviceRuntime } from "../device-service/runtime";
import { createPushSender } from "../jobs/alerts/push/sender";
import { startJobSide, type JobSide } from "../jobs/lifecycle";
import { createRunner } from "../jobs/runner";
import type { WebFilterService } from "../web-filter/service";
import { createWebFilter, type WebFilterRuntime } from "./web-filter";

/** The kinds of process (server/web.ts, server/device.ts, server/worker.ts, server/resolver.ts). */
export type ProcessKind = "web" | "device" | "worker" | "resolver";

export interface ServiceOptions<K extends ProcessKind = ProcessKind> {
  kind: K;
  env: Env;
  /** Run job workers in this process (default true; `npm run worker` runs them alone). */
  runWorkers?: boolean;
  /** BullMQ key prefix (tests and benches isolate themselves with their own). */
  queuePrefix?: string;
  /** Runs on the migrated database before the jobs start (the web process seeds the demo family here). */
  prepare?: (db: DB) => Promise<void>;
}

/** What every process has: the database (migrated, the shipped lists written), the bus and the log. */
export interface BaseServices {
  env: Env;
  db: DB;
  bus: Bus;
  log: Logger;
  close(): Promise<void>;
}

/** What the product's processes have besides: the job queues and the device service's dependencies. */
export interface CoreServices extends BaseServices {
  jobs: JobRunner;
  deps: DeviceServiceDeps;
}

/**
 * A process that serves HTTP (web, device): everything stateful, created once per process and handed to Remix
 * through the load context (app/load-context.ts) — route modules never open their own connections.
 */
export interface Services extends CoreServices {
  /** The device service as the given parent: authorisation lives in its procedures. */
  device: (parent: ParentIdentity | null) => DeviceCaller;
  /** The device service's runtime (socket gateway, presence, push): the process mounts it. */
  deviceRuntime: DeviceRuntime;
  /** The web filter (web processes, unless WEB_FILTER=false): what the pages use of it, and its resolver and policy. */
  webFilter?: WebFilterService;
  webFilterRuntime?: WebFilterRuntime;
  /** The Home Assistant bridge (web processes with MQTT_URL; server/home-assistant.ts), once connected. */
  homeAssistant?: { resync(): Promise<void> };
}

/** The worker: the jobs and what they call, no sockets. */
export interface WorkerServices extends CoreServices {
  /** What start-up recovery re-created. */
  recovered: JobSide["recovered"];
}

/** `npm run resolver`: the web filter alone (DoT), no jobs, no device service. */
export interface ResolverServices extends BaseServices {
  webFilterRuntime: WebFilterRuntime;
}

export function createServices(o: ServiceOptions<"web" | "device">): Promise<Services>;
export function createServices(o: ServiceOptions<"worker">): Promise<WorkerServices>;
export function createServices(o: ServiceOptions<"resolver">): Promise<ResolverServices>;
/**
 * The one composition root of every process: database (migrated), log files, bus, job queues and workers, and the
 * device service. A device process does not hear the parents' refreshes on the bus; a worker holds no sockets; a
 * resolver holds the web filter alone.
 */
export async function createServices(o: ServiceOptions): Promise<Services | WorkerServices | ResolverServices> {
  const env = o.env;
  if (o.kind === "worker" && !env.REDIS_URL)
    throw new Error("npm run worker needs REDIS_URL (BullMQ). Without it, `npm start` runs the jobs in-process.");
  if (o.kind === "resolver" && !env.REDIS_URL)
    throw new Error(
      "npm run resolver needs REDIS_URL (it hears the parents' changes there). Without it, `npm start` serves DoT in-process.",
    );
  // The database, logs and secrets live here: the service's user only (0700; the files 0600).
  prepareDataDir(env.DATA_DIR);
  const logFiles = createLogFileSink({ dir: serverLogDir(env.DATA_DIR), processName: `${o.kind}-${process.pid}` });
  const log = createLogger(env.LOG_LEVEL, { sink: logFiles });
  const db = createDb({
    url: env.databaseKind === "postgres" ? env.DATABASE_URL : env.sqlitePath,
    // A restart, failover or pg_terminate_backend: logged once per connection; the pool reconnects by itself.
    onError: (err) => log("warn", "database connection lost", { error: err.message }),
    namedStatements: env.PG_NAMED_STATEMENTS,
  });
  await migrateToLatest(db);
  // The shipped category lists of the web filter, in every database (idempotent; web-filter/lists/curated-sync.ts).
  await syncCuratedLists(db);
  // SQLite: WAL checkpoints on a worker thread, not inside the commits of the one thread serving pages and phones.
  const sqlite = sqliteHandleOf(db);
  const checkpointer = sqlite && env.sqlitePath !== ":memory:" ? startCheckpointer(sqlite, { log: (m) => log("warn", m) }) : null;
  await o.prepare?.(db);
  const redisLog = throttledLog(log, "redis");
  const bus = env.REDIS_URL
    ? // Lost connections are retried a few times a second while Redis is away: one line per 10 s per process, shared
      // with presence and the job queues (core/log.ts throttledLog).
      // The parents' messages are not for a device process or the resolver (`web-filter.kid` travels on the channel they hear).
      createRedisBus(env.REDIS_URL, (m) => redisLog("error", m), { hears: o.kind === "device" || o.kind === "resolver" ? "device" : "all" })
    : createLocalBus();
  const closeBase = async () => {
    await bus.close();
    await checkpointer?.close();
    await db.destroy();
    await logFiles.close();
  };
  // The per-kid DNS filter: in the web process (DoH on its port, server/web.ts; DoT there or in the resolver) and the resolver.
  const webFilter = () =>
    createWebFilter({
      db,
      bus,
      log,
      publicUrl: publicOrigin(env),
      env: { ...process.env, NODE_ENV: env.NODE_ENV, DATA_DIR: env.DATA_DIR },
    });

  if (o.kind === "resolver") {
    const webFilterRuntime = await webFilter().catch(async (err: unknown) => {
      await closeBase();
      throw err;
    });
    if (!webFilterRuntime) {
      await closeBase();
      throw new Error("npm run resolver with WEB_FILTER=false: nothing to serve.");
    }
    return {
      env,
      db,
      bus,
      log,
      webFilterRuntime,
      async close() {
        await webFilterRuntime.close();
        await closeBase();
      },
    };
  }

  const jobs = createRunner({ redisUrl: env.REDIS_URL || undefined, prefix: o.queuePrefix, log });
  let pushSender: ((d: AlertDelivery) => Promise<void>) | undefined;
  const settings = {
    db,
    bus,
    log,
    jobs,
    publicUrl: publicOrigin(env),
    installRetry: { baseMs: env.INSTALL_RETRY_BASE_MS, maxAttempts: env.INSTALL_RETRY_MAX_ATTEMPTS },
    catalogIconBase: env.CATALOG_ICON_BASE_URL,
    // The web filter's domain (unless WEB_FILTER=false): every process that builds policies names the kid's Private DNS.
    privateDnsDomain: privateDnsDomainFromEnv(process.env),
    fcm: { projectId: env.FCM_PROJECT_ID, clientEmail: env.FCM_CLIENT_EMAIL, privateKey: env.FCM_PRIVATE_KEY },
    // Report mails go through the one mail adapter (SMTP_URL, else the dev mailbox in the database's outbox).
    reports: {
      mailer: (mail: Parameters<typeof deliverMail>[1]) => deliverMail({ env, log, keep: (m) => addToOutbox(db, m) }, mail),
      secret: env.SESSION_SECRET,
    },
    webhooks: { allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE },
    mail: (mail: Parameters<typeof deliverMail>[1]) => deliverMail({ env, log, keep: (m) => addToOutbox(db, m) }, mail),
    // The alert pipeline (jobs/alerts/deliver.ts): e-mail through `reports.mailer`, Web Push signed with the VAPID keys
    // (read, or made in DATA_DIR, at the first push: the web process and the workers share DATA_DIR or VAPID_*).
    alerts: {
      offlineHours: env.ALERT_OFFLINE_HOURS,
      // No SMTP_URL and no dev mailbox (npm start, a deployment without mail): alert e-mails are skipped, not retried.
      mailOff: !env.SMTP_URL && !mailboxAvailable(env),
      push: (d: AlertDelivery) => (pushSender ??= createPushSender({ db, vapid: cachedVapidKeys(env), log }))(d),
    },
  };
  const retention = { webLogDays: env.WEB_LOG_DAYS, webLogMaxRowsPerKid: env.WEB_LOG_MAX_ROWS_PER_KID };

  if (o.kind === "worker") {
    // No sockets here: commands reach phones through the bus (to whichever process holds them) or push.
    const deps = createDeviceDeps(settings);
    const jobSide = await startJobSide(deps, jobs, { runWorkers: true, retention });
    return {
      env,
      db,
      bus,
      log,
      jobs,
      deps,
      recovered: jobSide.recovered,
      async close() {
        await jobSide.close();
        await jobs.close();
        await closeBase();
      },
    };
  }

  const deviceRuntime = await createDeviceRuntime({
    ...settings,
    redisUrl: env.REDIS_URL || undefined,
    startJobs: (deps) => startJobSide(deps, jobs, { runWorkers: o.runWorkers, retention }),
  });
  const deps = deviceRuntime.deps;
  const webFilterRuntime = o.kind === "web" ? await webFilter() : undefined;
  return {
    env,
    db,
    bus,
    log,
    jobs,
    deps,
    deviceRuntime,
    // In-process by default; over HTTP to a separately deployed device service when DEVICE_SERVICE_URL is set.
    device: env.DEVICE_SERVICE_URL
      ? createRemoteDevice(env.DEVICE_SERVICE_URL, env.DEVICE_SERVICE_KEY)
      : (parent) => createDeviceCaller({ ...deps, parent }),
    webFilter: webFilterRuntime?.service,
    webFilterRuntime,
    async close() {
      await webFilterRuntime?.close();
      await deviceRuntime.close();
      await closeBase();
    },
  };
}

/**
 * A process without HTTP (the worker, the resolver) stops on SIGTERM/SIGINT: it logs, closes its services (what is in
 * hand finishes first), then exits 0. The web and device processes close their HTTP servers first (server/web.ts,
 * server/device.ts).
 */
export function closeOnSignal(services: BaseServices, name: string): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.log("info", `${name} shutting down`, { signal });
    await services.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}
