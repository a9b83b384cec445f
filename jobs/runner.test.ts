import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createBullRunner } from "./bullmq";
import { createInProcessRunner } from "./in-process";
import type { JobRunner, Payload, Processors } from "./queues";

const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

const runners: Record<string, () => JobRunner> = {
  "in-process": () => createInProcessRunner(),
  // A missing Redis makes these fail (enqueue rejects after 5 s): they never skip.
  bullmq: () => createBullRunner({ redisUrl: REDIS, prefix: `test-${randomBytes(4).toString("hex")}` }),
};

describe.each(Object.keys(runners))("%s runner", (kind) => {
  let runner: JobRunner | undefined;
  afterEach(async () => {
    await runner?.close();
  });

  function processors(seen: { name: string; payload: unknown; at: number }[], failTimes = 0): Processors {
    let failures = 0;
    return {
      "kids-refresh": async (p: Payload<"kids-refresh">) => {
        seen.push({ name: "kids-refresh", payload: p, at: Date.now() });
      },
      "command-expiry": async (p: Payload<"command-expiry">) => {
        if (failures++ < failTimes) throw new Error("transient");
        seen.push({ name: "command-expiry", payload: p, at: Date.now() });
      },
      "install-retry": async (p: Payload<"install-retry">) => {
        seen.push({ name: "install-retry", payload: p, at: Date.now() });
      },
    };
  }

  const until = async (cond: () => boolean, ms = 8_000) => {
    const end = Date.now() + ms;
    while (!cond()) {
      if (Date.now() > end) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  it("runs a delayed job no earlier than its delay", async () => {
    runner = runners[kind]();
    expect(runner.kind).toBe(kind);
    const seen: { name: string; payload: unknown; at: number }[] = [];
    await runner.start(processors(seen));
    const t0 = Date.now();
    await runner.enqueue("kids-refresh", { profileId: "p1", reason: "sleep-mode" }, { delayMs: 600 });
    await until(() => seen.length === 1);
    expect(seen[0]).toMatchObject({ name: "kids-refresh", payload: { profileId: "p1", reason: "sleep-mode" } });
    expect(seen[0].at - t0).toBeGreaterThanOrEqual(590);
  });

  it("retries a failing job with backoff, and deduplicates by job id", async () => {
    runner = runners[kind]();
    const seen: { name: string; payload: unknown; at: number }[] = [];
    await runner.start(processors(seen, 1));
    await runner.enqueue("command-expiry", { commandId: "c1" }, { jobId: "expire-c1" });
    await runner.enqueue("command-expiry", { commandId: "c1" }, { jobId: "expire-c1" });
    await until(() => seen.length >= 1);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(seen.filter((s) => s.name === "command-expiry")).toHaveLength(1);
    const counts = await runner.counts();
    expect(counts.find((c) => c.name === "command-expiry")?.completed).toBe(1);
  });

  it("refuses an invalid payload", async () => {
    runner = runners[kind]();
    await expect(runner.enqueue("install-retry", { deviceId: "", packageName: "x" })).rejects.toThrow();
  });
});
