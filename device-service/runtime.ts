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
}

export interface DeviceRuntime {
  deps: DeviceServiceDeps;
  gateway: Gateway;
  jobs: JobRunner;
  close(): Promise<void>;
}

/** Wires the device service: jobs runner, push transport, socket gateway, recovery and the expiry sweep. */
export async function createDeviceRuntime(o: DeviceRuntimeOptions): Promise<DeviceRuntime> {
  const jobs = createRunner({ redisUrl: o.redisUrl, prefix: o.queuePrefix, log: o.log });
  const push = o.push ?? (o.fcm?.projectId && o.fcm.clientEmail && o.fcm.privateKey ? createFcmTransport(o.fcm, o.log) : createLoggingTransport(o.log));
  const deps: DeviceServiceDeps = { db: o.db, bus: o.bus, log: o.log, jobs, push, publicUrl: o.publicUrl };
  if (!o.redisUrl) {
    // One process holds every socket: any phone marked online by a previous run (crash, kill -9) is not
    // connected now, and must get push instead of waiting for a socket that is gone.
    await o.db.updateTable("device_status").set({ online: 0 }).where("online", "=", 1).execute();
  }
  const gateway = createGateway(deps, { pingIntervalMs: o.pingIntervalMs });
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
    jobs,
    async close() {
      clearInterval(sweep);
      clearInterval(housekeeping);
      await gateway.close();
      await jobs.close();
    },
  };
}
