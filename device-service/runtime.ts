import type { DB } from "../db/index";
import { createProcessors } from "../jobs/processors/index";
import type { JobRunner } from "../jobs/queues";
import { pruneExpiredState } from "../jobs/housekeeping";
import { recoverJobs } from "../jobs/recover";
import { createRunner } from "../jobs/runner";
import type { Bus } from "./bus";
import { expireOverdue } from "./commands/outbox";
import { createFcmTransport, createLoggingTransport, type PushTransport } from "./commands/push";
import type { DeviceServiceDeps, LogFn } from "./context";
import { createGateway, type Gateway } from "./socket/gateway";
import { startPresence, type Presence } from "./socket/presence";

export interface DeviceRuntimeOptions {
  db: DB;
  bus: Bus;
  log: LogFn;
  redisUrl?: string;
  /** BullMQ key prefix (tests isolate with a random one). */
  queuePrefix?: string;
  publicUrl?: string;
  fcm?: { projectId: string; clientEmail: string; privateKey: string; apiBase?: string; tokenUri?: string };
  /** Run the job workers in this process (default true). `npm run worker` runs them alone. */
  runWorkers?: boolean;
  pingIntervalMs?: number;
  push?: PushTransport;
  /** The report job's mail transport and unsubscribe-link key (device-service/services.ts passes them). */
  reports?: DeviceServiceDeps["reports"];
  /** Store installs' automatic retries (INSTALL_RETRY_BASE_MS, INSTALL_RETRY_MAX_ATTEMPTS). */
  installRetry?: { baseMs: number; maxAttempts: number };
  /** CATALOG_ICON_BASE_URL (device-service/services.ts passes it); empty or absent → icons drawn locally. */
  catalogIconBase?: string;
  /** Presence timings (tests shorten them); defaults in device-service/socket/presence.ts. */
  presence?: { heartbeatMs?: number; ttlMs?: number; sweepMs?: number };
}

export interface DeviceRuntime {
  deps: DeviceServiceDeps;
  gateway: Gateway;
  /** The presence heartbeat (with Redis only). */
  presence: Presence | null;
  jobs: JobRunner;
  close(): Promise<void>;
}

/** Wires the device service: jobs runner, push transport, socket gateway, recovery and the expiry sweep. */
export async function createDeviceRuntime(o: DeviceRuntimeOptions): Promise<DeviceRuntime> {
  const jobs = createRunner({ redisUrl: o.redisUrl, prefix: o.queuePrefix, log: o.log });
  const push = o.push ?? (o.fcm?.projectId && o.fcm.clientEmail && o.fcm.privateKey ? createFcmTransport(o.fcm, o.log) : createLoggingTransport(o.log));
  const deps: DeviceServiceDeps = { db: o.db, bus: o.bus, log: o.log, jobs, push, publicUrl: o.publicUrl, reports: o.reports, installRetry: o.installRetry, catalogIconBase: o.catalogIconBase };
  if (!o.redisUrl) {
    // One process holds every socket: any phone marked online by a previous run (crash, kill -9) is not
    // connected now, and must get push instead of waiting for a socket that is gone.
    await o.db.updateTable("device_status").set({ online: 0 }).where("online", "=", 1).execute();
  }
  // With Redis, several processes may hold phones: each keeps a heartbeat, and phones held by a process that
  // stopped beating (kill -9) are marked offline by the others (device-service/socket/presence.ts).
  const holder: { gateway?: Gateway } = {};
  const presence: Presence | null = o.redisUrl
    ? await startPresence({ redisUrl: o.redisUrl, db: o.db, bus: o.bus, log: o.log, held: () => holder.gateway?.ids() ?? [], ...o.presence })
    : null;
  deps.processId = presence?.processId ?? null;
  const gateway = createGateway(deps, { pingIntervalMs: o.pingIntervalMs });
  holder.gateway = gateway;
  deps.connections = gateway;
  if (o.runWorkers !== false) await jobs.start(createProcessors(deps));
  try {
    await recoverJobs(deps);
  } catch (err) {
    o.log("warn", "job recovery incomplete", { error: err instanceof Error ? err.message : String(err) });
  }
  // Belt and braces beside the expiry jobs: a sweep closes anything overdue once a minute.
  const sweep = setInterval(() => void expireOverdue(o.db).catch(() => {}), 60_000);
  sweep.unref();
  // Housekeeping (receipts, spent tokens, ended sessions, rate-limit windows): at start-up, then hourly.
  const prune = () =>
    void pruneExpiredState(o.db).catch((err: unknown) => o.log("warn", "housekeeping failed", { error: err instanceof Error ? err.message : String(err) }));
  prune();
  const housekeeping = setInterval(prune, 3_600_000);
  housekeeping.unref();
  return {
    deps,
    gateway,
    presence,
    jobs,
    async close() {
      clearInterval(sweep);
      clearInterval(housekeeping);
      await gateway.close();
      await presence?.close();
      await jobs.close();
    },
  };
}
