import type { DeviceServiceDeps } from "../device-service/context";
import type { JobRunner } from "../core/job-queues";
import { pruneExpiredState, type Retention } from "./housekeeping";
import { createProcessors } from "./processors/index";
import { recoverJobs } from "./recover";

export interface JobSide {
  /** What start-up recovery re-created (logged by the worker process). */
  recovered: Awaited<ReturnType<typeof recoverJobs>> | null;
  close(): Promise<void>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The job side of a process: workers for every queue (unless `runWorkers` is false: a web process beside `npm run
 * worker`), the jobs lost while nothing ran re-created from the database (recover.ts), and housekeeping at start-up,
 * then hourly. Every process may run it: job ids and schedule ids deduplicate, and housekeeping is idempotent.
 */
export async function startJobSide(
  deps: DeviceServiceDeps,
  runner: JobRunner,
  o: { runWorkers?: boolean; retention?: Retention } = {},
): Promise<JobSide> {
  if (o.runWorkers !== false) await runner.start(createProcessors(deps));
  let recovered: JobSide["recovered"] = null;
  try {
    recovered = await recoverJobs(deps);
  } catch (err) {
    deps.log("warn", "job recovery incomplete", { error: message(err) });
  }
  // Housekeeping (receipts, spent tokens, ended sessions, rate-limit windows, the web filter's visited sites).
  const prune = () =>
    void pruneExpiredState(deps.db, new Date(), o.retention).catch((err: unknown) =>
      deps.log("warn", "housekeeping failed", { error: message(err) }),
    );
  prune();
  const housekeeping = setInterval(prune, 3_600_000);
  housekeeping.unref();
  return {
    recovered,
    async close() {
      clearInterval(housekeeping);
    },
  };
}
