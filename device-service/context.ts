import type { DB } from "../db/index";
import type { Bus, CarriedCommand } from "./bus";
import type { PushTransport } from "./commands/push";
import type { JobQueue } from "../core/job-queues";
import type { ReportMailer } from "../core/report-mail";
import type { Mail } from "../core/mail.server";
import type { Resolver } from "../core/net-guard.server";
import type { PrivateDnsTransition } from "../core/private-dns";
import type { AlertDelivery } from "../core/alert-events";
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
  /**
   * The alert pipeline (jobs/alerts/deliver.ts): `push`, the Web Push channel (absent: push deliveries are skipped);
   * `offlineHours`, ALERT_OFFLINE_HOURS (default 6). E-mail goes through `reports.mailer` and its signing key.
   */
  alerts?: { push?: (d: AlertDelivery) => Promise<void>; offlineHours?: number; mailOff?: boolean };
  /** Store installs' automatic retries (INSTALL_RETRY_BASE_MS, INSTALL_RETRY_MAX_ATTEMPTS); defaults in installs.ts. */
  installRetry?: { baseMs: number; maxAttempts: number };
  /** CATALOG_ICON_BASE_URL from the composition root: real store icons for master applications; empty → drawn locally. */
  catalogIconBase?: string;
  /**
   * Webhook deliveries (jobs/processors/webhook-delivery.ts): WEBHOOKS_ALLOW_PRIVATE, and for tests a shorter retry
   * schedule, failure limit, timeout and a resolver; defaults in core/webhooks.ts.
   */
  webhooks?: { allowPrivate: boolean; retryDelaysMs?: number[]; disableAfter?: number; timeoutMs?: number; resolve?: Resolver };
  /** The one mail adapter (core/mail.server.ts deliverMail) for plain mails the jobs send (an endpoint switched off). */
  mail?: (mail: Mail) => Promise<boolean>;
  /**
   * DNS_FILTER_DOMAIN when the web filter is on (server/services.ts, core/private-dns.ts `privateDnsDomainFromEnv`):
   * each phone's policy then names its kid's Private DNS hostname `<filter id>.<domain>`. Absent: the filter is off.
   */
  privateDnsDomain?: string;
  /**
   * Hears a phone's Private DNS leaving the kid's filter or coming back (device-service/private-dns.ts, from each
   * child_status): the alerts pipeline listens here (kind "tamper.private-dns", `privateDnsAlertEvent`).
   */
  onPrivateDnsTransition?: (t: PrivateDnsTransition) => void | Promise<void>;
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
