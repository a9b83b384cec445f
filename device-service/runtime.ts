import type { JobRunner } from "../core/job-queues";
import type { DB } from "../db/index";
import type { Bus } from "./bus";
import { expireOverdue } from "./commands/outbox";
import { createFcmTransport, createLoggingTransport, type PushTransport } from "./commands/push";
import { raiseAlert } from "./alerts";
import type { DeviceServiceDeps, LogFn } from "./context";
import { createGateway, type Gateway } from "./socket/gateway";
import { startPresence, type Presence } from "./socket/presence";

export interface DeviceRuntimeOptions {
  db: DB;
  bus: Bus;
  log: LogFn;
  redisUrl?: string;
  /** The job queues (BullMQ or in-process, jobs/runner.ts): the service enqueues on them; closed with the runtime. */
  jobs: JobRunner;
  /**
   * Starts the job side once the service's dependencies exist (workers, recovery of lost jobs, housekeeping: the
   * composition root passes jobs/lifecycle.ts); what it returns is closed with the runtime.
   */
  startJobs?: (deps: DeviceServiceDeps) => Promise<{ close(): Promise<void> }>;
  publicUrl?: string;
  fcm?: { projectId: string; clientEmail: string; privateKey: string; apiBase?: string; tokenUri?: string };
  pingIntervalMs?: number;
  push?: PushTransport;
  /** The report job's mail transport and unsubscribe-link key (server/services.ts passes them). */
  reports?: DeviceServiceDeps["reports"];
  /** The alert pipeline's push channel and offline threshold (server/services.ts passes them). */
  alerts?: DeviceServiceDeps["alerts"];
  /** Store installs' automatic retries (INSTALL_RETRY_BASE_MS, INSTALL_RETRY_MAX_ATTEMPTS). */
  installRetry?: { baseMs: number; maxAttempts: number };
  /** CATALOG_ICON_BASE_URL (server/services.ts passes it); empty or absent → icons drawn locally. */
  catalogIconBase?: string;
  /** Webhook deliveries (WEBHOOKS_ALLOW_PRIVATE; tests shorten the schedule) and the plain mail adapter. */
  webhooks?: DeviceServiceDeps["webhooks"];
  mail?: DeviceServiceDeps["mail"];
  /** DNS_FILTER_DOMAIN when the web filter is on: policies name the kid's Private DNS hostname (DeviceServiceDeps). */
  privateDnsDomain?: string;
  onPrivateDnsTransition?: DeviceServiceDeps["onPrivateDnsTransition"];
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

/** The push transport: FCM when its three settings are given, else one that logs what it would send. */
export function createPushTransport(o: { fcm?: DeviceRuntimeOptions["fcm"]; log: LogFn }): PushTransport {
  return o.fcm?.projectId && o.fcm.clientEmail && o.fcm.privateKey ? createFcmTransport(o.fcm, o.log) : createLoggingTransport(o.log);
}

/** The device service's dependencies without sockets (a worker process: it reaches phones through the bus or push). */
export function createDeviceDeps(
  o: Omit<DeviceRuntimeOptions, "startJobs" | "pingIntervalMs" | "presence" | "redisUrl">,
): DeviceServiceDeps {
  const push = o.push ?? createPushTransport(o);
  const deps: DeviceServiceDeps = {
    db: o.db,
    bus: o.bus,
    log: o.log,
    jobs: o.jobs,
    push,
    publicUrl: o.publicUrl,
    reports: o.reports,
    alerts: o.alerts,
    installRetry: o.installRetry,
    catalogIconBase: o.catalogIconBase,
    webhooks: o.webhooks,
    mail: o.mail,
    privateDnsDomain: o.privateDnsDomain,
    onPrivateDnsTransition: o.onPrivateDnsTransition,
  };
  // What the service notices (places' arrivals and departures) becomes alerts: recorded once, delivered by jobs.
  deps.onAlertEvent = (e) => void raiseAlert(deps, e);
  return deps;
}

/** Wires the device service: push transport, socket gateway, presence, the expiry sweep, then the job side (startJobs). */
export async function createDeviceRuntime(o: DeviceRuntimeOptions): Promise<DeviceRuntime> {
  const jobs = o.jobs;
  const deps = createDeviceDeps(o);
  if (!o.redisUrl) {
    // One process holds every socket: any phone marked online by a previous run (crash, kill -9) is not
    // connected now, and must get push instead of waiting for a socket that is gone.
    await o.db.updateTable("device_status").set({ online: 0 }).where("online", "=", 1).execute();
  }
  // With Redis, several processes may hold phones: each keeps a heartbeat, and phones held by a process that
  // stopped beating (kill -9) are marked offline by the others (device-service/socket/presence.ts).
  const holder: { gateway?: Gateway } = {};
  const presence: Presence | null = o.redisUrl
    ? await startPresence({
        redisUrl: o.redisUrl,
        db: o.db,
        bus: o.bus,
        log: o.log,
        held: () => holder.gateway?.ids() ?? [],
        ...o.presence,
      })
    : null;
  deps.processId = presence?.processId ?? null;
  const gateway = createGateway(deps, { pingIntervalMs: o.pingIntervalMs });
  holder.gateway = gateway;
  deps.connections = gateway;
  const jobSide = await o.startJobs?.(deps);
  // Belt and braces beside the expiry jobs: a sweep closes anything overdue once a minute.
  const sweep = setInterval(() => void expireOverdue(o.db).catch(() => {}), 60_000);
  sweep.unref();
  return {
    deps,
    gateway,
    presence,
    jobs,
    async close() {
      clearInterval(sweep);
      await gateway.close();
      await presence?.close();
      await jobSide?.close();
      await jobs.close();
    },
  };
}
