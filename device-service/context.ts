import type { DB } from "../db/index";
import type { Bus, CarriedCommand } from "./bus";
import type { PushTransport } from "./commands/push";
import type { JobQueue } from "../core/job-queues";
import type { ReportMailer } from "../core/report-mail";
import type { AlertEvent } from "../core/alert-events";

export interface ParentIdentity {
  id: string;
  email: string;
  role: "parent" | "operator";
}

export type LogFn = (level: "debug" | "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;

/** The phones connected to this process: deliver pending commands to one of them, if it is here. */
export interface LocalConnections {
  has(deviceId: string): boolean;
  /** `carried`: the new commands, sent before the outbox is read (socket/delivery.ts). */
  deliver(deviceId: string, opts?: { includeSent?: boolean; carried?: readonly CarriedCommand[] }): Promise<void>;
}

export interface DeviceServiceDeps {
  db: DB;
  bus: Bus;
  log: LogFn;
  /** Producer side of the job queues (BullMQ or in-process). Optional only for bare test contexts. */
  jobs?: JobQueue;
  push?: PushTransport;
  connections?: LocalConnections;
  /**
   * This process's name in the presence heartbeat (device-service/socket/presence.ts), stored beside each phone
   * it holds; null without Redis (one process holds every socket).
   */
  processId?: string | null;
  /** Base URL phones use to reach this service (enrollment links). */
  publicUrl?: string;
  /** The report job's mail transport and link signing key, from the composition root (no mail without it). */
  reports?: { mailer: ReportMailer; secret: string };
  /** Store installs' automatic retries (INSTALL_RETRY_BASE_MS, INSTALL_RETRY_MAX_ATTEMPTS); defaults in installs.ts. */
  installRetry?: { baseMs: number; maxAttempts: number };
  /** CATALOG_ICON_BASE_URL from the composition root: real store icons for master applications; empty → drawn locally. */
  catalogIconBase?: string;
  /**
   * Where the events this service notices go (place arrivals and departures, device-service/places.ts), after the
   * transaction that stored them commits; the alert pipeline in the composition root. Absent: nowhere (they stay in
   * place_events).
   */
  onAlertEvent?: (e: AlertEvent) => void;
}

export interface DeviceServiceContext extends DeviceServiceDeps {
  parent: ParentIdentity | null;
}
