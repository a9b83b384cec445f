import { Queue, Worker, type ConnectionOptions, type JobsOptions } from "bullmq";
import { Redis, type RedisOptions } from "ioredis";
import {
  JOB_ATTEMPTS,
  JOB_BACKOFF_MS,
  QUEUE_NAMES,
  QUEUES,
  type EnqueueOptions,
  type JobRunner,
  type Payload,
  type Processors,
  type QueueName,
} from "../core/job-queues";
import { throttledLog } from "../core/log";

export interface BullRunnerOptions {
  redisUrl: string;
  /** Key prefix (tests isolate themselves with a random one). */
  prefix?: string;
  concurrency?: number;
  log?: (level: "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;
}

export interface BullRunner extends JobRunner {
  readonly queues: Queue[];
}

/**
 * BullMQ on Redis, following BullMQ's "going to production" guide: workers use a connection with
 * maxRetriesPerRequest null (they wait for Redis forever), producers fail fast (no offline queue), every
 * queue and worker has an error listener, finished jobs are trimmed, and close() is graceful.
 */
export function createBullRunner(opts: BullRunnerOptions): BullRunner {
  const log = opts.log ?? (() => {});
  // A Redis outage: every connection errors on each reconnection attempt, every queue and worker too; the process logs
  // it once per 10 s, sharing the "redis" budget with the bus and presence (core/log.ts throttledLog).
  const redisLog = throttledLog(log, "redis");
  const prefix = opts.prefix ?? "kids-portal";
  const base: RedisOptions = { lazyConnect: false };
  const producerConnection = new Redis(opts.redisUrl, {
    ...base,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectionName: `${prefix}:producer`,
  });
  producerConnection.on("error", (e) => redisLog("warn", "bullmq producer redis error", { error: e.message }));
  const queues = new Map<QueueName, Queue>(
    QUEUE_NAMES.map((name) => {
      const q = new Queue(name, { connection: producerConnection as unknown as ConnectionOptions, prefix });
      q.on("error", (e) => redisLog("error", "bullmq queue error", { queue: name, error: e.message }));
      return [name, q];
    }),
  );
  const workers: Worker[] = [];
  let workerConnection: Redis | undefined;
  const defaults: JobsOptions = {
    attempts: JOB_ATTEMPTS,
    backoff: { type: "exponential", delay: JOB_BACKOFF_MS },
    removeOnComplete: { age: 24 * 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600 },
  };
  // Every enqueue waits (up to 5 s) for the producer's connection when it is (re)connecting, so a Redis restart
  // delays jobs instead of failing them; a Redis that stays away fails the enqueue fast.
  const where = (() => {
    try {
      return new URL(opts.redisUrl).host;
    } catch {
      return "REDIS_URL";
    }
  })();
  const waitReady = () =>
    producerConnection.status === "ready"
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          const onReady = () => {
            clearTimeout(t);
            resolve();
          };
          const t = setTimeout(() => {
            producerConnection.off("ready", onReady);
            reject(new Error(`Redis is not reachable at ${where}`));
          }, 5_000);
          producerConnection.once("ready", onReady);
        });

  return {
    kind: "bullmq",
    get queues() {
      return [...queues.values()];
    },
    async enqueue<N extends QueueName>(name: N, payload: Payload<N>, o: EnqueueOptions = {}) {
      const data = QUEUES[name].parse(payload);
      await waitReady();
      await queues.get(name)!.add(name, data, { ...defaults, delay: o.delayMs, jobId: o.jobId });
    },
    async repeat(name, payload, o) {
      const data = QUEUES[name].parse(payload);
      await waitReady();
      // A job scheduler: Redis keeps it, so one schedule serves every process (upsert is idempotent).
      await queues.get(name)!.upsertJobScheduler(o.id, { every: o.everyMs }, { name, data, opts: defaults });
    },
    async start(processors: Processors) {
      await waitReady();
      workerConnection = new Redis(opts.redisUrl, { maxRetriesPerRequest: null, connectionName: `${prefix}:worker` });
      workerConnection.on("error", (e) => redisLog("warn", "bullmq worker redis error", { error: e.message }));
      for (const name of QUEUE_NAMES) {
        const w = new Worker(
          name,
          async (job) => {
            const payload = QUEUES[name].parse(job.data);
            await (processors[name] as (p: unknown) => Promise<void>)(payload);
          },
          { connection: workerConnection as unknown as ConnectionOptions, prefix, concurrency: opts.concurrency ?? 5 },
        );
        w.on("error", (e) => redisLog("error", "bullmq worker error", { queue: name, error: e.message }));
        w.on("failed", (job, e) =>
          log("warn", "job failed", { queue: name, jobId: job?.id, attempts: job?.attemptsMade, error: e.message }),
        );
        workers.push(w);
      }
      await Promise.all(workers.map((w) => w.waitUntilReady()));
    },
    async counts() {
      return Promise.all(
        QUEUE_NAMES.map(async (name) => {
          const c = await queues.get(name)!.getJobCounts("waiting", "delayed", "active", "completed", "failed");
          return {
            name,
            waiting: c.waiting ?? 0,
            delayed: c.delayed ?? 0,
            active: c.active ?? 0,
            completed: c.completed ?? 0,
            failed: c.failed ?? 0,
          };
        }),
      );
    },
    async close() {
      // Workers first: they finish the job in hand, then stop taking new ones.
      await Promise.allSettled(workers.map((w) => w.close()));
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      await Promise.allSettled([producerConnection.quit(), workerConnection?.quit()]);
    },
  };
}
