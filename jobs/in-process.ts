import {
  JOB_ATTEMPTS,
  JOB_BACKOFF_MS,
  QUEUE_NAMES,
  QUEUES,
  type EnqueueOptions,
  type JobRunner,
  type Payload,
  type Processors,
  type QueueCounts,
  type QueueName,
} from "../core/job-queues";

/**
 * The default runner: timers in this process. Same contract as BullMQ's (validated payloads, delays,
 * dedup by job id, retries with exponential backoff); what it loses on a crash is re-derived from the
 * database at start-up (see jobs/recover.ts).
 */
export function createInProcessRunner(
  log: (level: "warn" | "error", msg: string, extra?: Record<string, unknown>) => void = () => {},
): JobRunner {
  let processors: Processors | undefined;
  let closed = false;
  const timers = new Set<NodeJS.Timeout>();
  const repeats = new Map<string, NodeJS.Timeout>();
  const pendingIds = new Set<string>();
  const stats = new Map<QueueName, QueueCounts>(
    QUEUE_NAMES.map((name) => [name, { name, waiting: 0, delayed: 0, active: 0, completed: 0, failed: 0 }]),
  );
  const held: { name: QueueName; payload: unknown; opts: EnqueueOptions }[] = [];

  function schedule(name: QueueName, payload: unknown, delayMs: number, attempt: number, jobId?: string) {
    const s = stats.get(name)!;
    s.delayed++;
    const timer = setTimeout(async () => {
      timers.delete(timer);
      s.delayed--;
      if (closed) return;
      s.active++;
      try {
        await (processors![name] as (p: unknown) => Promise<void>)(payload);
        s.completed++;
        if (jobId) pendingIds.delete(jobId);
      } catch (err) {
        if (attempt + 1 < JOB_ATTEMPTS) {
          schedule(name, payload, JOB_BACKOFF_MS * 2 ** attempt, attempt + 1, jobId);
        } else {
          s.failed++;
          if (jobId) pendingIds.delete(jobId);
          log("error", "job failed", { queue: name, error: err instanceof Error ? err.message : String(err) });
        }
      } finally {
        s.active--;
      }
    }, delayMs);
    timer.unref?.();
    timers.add(timer);
  }

  return {
    kind: "in-process",
    async enqueue<N extends QueueName>(name: N, payload: Payload<N>, opts: EnqueueOptions = {}) {
      const parsed = QUEUES[name].parse(payload);
      if (closed) return;
      if (opts.jobId) {
        if (pendingIds.has(opts.jobId)) return;
        pendingIds.add(opts.jobId);
      }
      if (!processors) {
        held.push({ name, payload: parsed, opts });
        return;
      }
      schedule(name, parsed, opts.delayMs ?? 0, 0, opts.jobId);
    },
    async repeat(name, payload, opts) {
      const parsed = QUEUES[name].parse(payload);
      clearInterval(repeats.get(opts.id));
      if (closed) return;
      const timer = setInterval(() => {
        if (processors) schedule(name, parsed, 0, 0);
      }, opts.everyMs);
      timer.unref?.();
      repeats.set(opts.id, timer);
    },
    async start(p) {
      processors = p;
      for (const h of held.splice(0)) schedule(h.name, h.payload, h.opts.delayMs ?? 0, 0, h.opts.jobId);
    },
    async counts() {
      return QUEUE_NAMES.map((n) => ({ ...stats.get(n)! }));
    },
    async close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const t of repeats.values()) clearInterval(t);
      repeats.clear();
    },
  };
}
