/** The job contract shared by the producers (device-service/, app/) and the workers (jobs/): queue names, payload schemas and the queue interfaces. */
import { z } from "zod";

/** Queue names and their payloads. Payloads carry ids only: never secrets, never state the database holds. */
export const QUEUES = {
  /** Pushes a refresh to the parents' open dashboards (2 s after sleep mode, 3 s after protection). */
  "kids-refresh": z.object({ profileId: z.string().min(1), reason: z.string().min(1).max(100) }),
  /**
   * Closes the one-shot commands still unacknowledged at their expiry: `until`, the second whose expiries it sweeps
   * (device-service/commands/outbox.ts scheduleExpiry); `commandId`, one command (jobs queued by earlier versions, which swept one command each).
   */
  "command-expiry": z.union([z.object({ until: z.string().datetime() }), z.object({ commandId: z.string().min(1) })]),
  /** Re-sends an install that failed for a transient reason (state in install_retries). */
  "install-retry": z.object({ deviceId: z.string().min(1), packageName: z.string().min(1) }),
  /**
   * At each family's midnight (its own time zone): re-enables apps stopped for the previous day's usage and
   * schedules the next midnight; a 15-minute tick runs the same (payload without `day`) in case a job was lost.
   */
  "daily-reset": z.object({
    day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
  /** Builds the reports of periods that closed (hourly, and at start-up); `since` back-fills from a local date. */
  reports: z.object({
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
  }),
  /**
   * One attempt of one webhook delivery (jobs/processors/webhook-delivery.ts): a failed attempt queues the next one
   * itself, on the webhook schedule (core/webhooks.ts), with the job id `webhook-<delivery>-<attempt>`.
   */
  "webhook-delivery": z.object({ deliveryId: z.string().min(1).max(64) }),
  /** Each minute: deliveries whose attempt is overdue (a lost job, a crash mid-send) are queued again. */
  "webhook-sweep": z.object({}),
  /**
   * Delivers one alert's channels (e-mail, push, the centre's live bell), each at most once (state in
   * alert_deliveries, claimed in a transaction); re-queued with a delay for quiet hours and back-off.
   */
  "alert-delivery": z.object({ alertId: z.string().min(1).max(100) }),
  /**
   * Every 5 minutes: raises phone.offline for phones offline longer than ALERT_OFFLINE_HOURS (once per spell), and
   * re-queues deliveries whose job was lost or whose quiet hours ended.
   */
  "alert-tick": z.object({}),
} as const;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];
export type Payload<N extends QueueName> = z.infer<(typeof QUEUES)[N]>;

export interface EnqueueOptions {
  delayMs?: number;
  /** Deduplicates: a job with the same id that is still waiting is not added twice. No ':' allowed. */
  jobId?: string;
}

export interface RepeatOptions {
  /** The schedule's id: registering the same id again replaces it (every process may register it). */
  id: string;
  everyMs: number;
}

/** The producer side, handed to the device service. */
export interface JobQueue {
  enqueue<N extends QueueName>(name: N, payload: Payload<N>, opts?: EnqueueOptions): Promise<void>;
  /** A job that comes back every `everyMs` (BullMQ: a job scheduler in Redis, shown on /admin/queues; in-process: a timer). */
  repeat<N extends QueueName>(name: N, payload: Payload<N>, opts: RepeatOptions): Promise<void>;
}

export type Processors = { [N in QueueName]: (payload: Payload<N>) => Promise<void> };

export interface QueueCounts {
  name: QueueName;
  waiting: number;
  delayed: number;
  active: number;
  completed: number;
  failed: number;
}

export interface JobRunner extends JobQueue {
  readonly kind: "bullmq" | "in-process";
  /** Starts workers for every queue (a producer-only runner never calls this). */
  start(processors: Processors): Promise<void>;
  counts(): Promise<QueueCounts[]>;
  close(): Promise<void>;
}

export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1_000;
