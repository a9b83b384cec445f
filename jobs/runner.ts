import { createBullRunner } from "./bullmq";
import { createInProcessRunner } from "./in-process";
import type { JobRunner } from "../core/job-queues";

type Log = (level: "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;

/** BullMQ when REDIS_URL is set, otherwise the in-process runner: one interface either way. */
export function createRunner(opts: { redisUrl?: string; prefix?: string; log?: Log }): JobRunner {
  return opts.redisUrl
    ? createBullRunner({ redisUrl: opts.redisUrl, prefix: opts.prefix, log: opts.log })
    : createInProcessRunner(opts.log);
}
