import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createBullRunner } from "./bullmq";
import { createInProcessRunner } from "./in-process";
import type { JobRunner, Payload, Processors } from "../core/job-queues";

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
      "daily-reset": async (p: Payload<"daily-reset">) => {
        seen.push({ name: "daily-reset", payload: p, at: Date.now() });
      },
      reports: async (p: Payload<"reports">) => {
        seen.push({ name: "reports", payload: p, at: Date.now() });
      },
      "webhook-delivery": async (p: Payload<"webhook-delivery">) => {
        seen.push({ name: "webhook-delivery", payload: p, at: Date.now() });
      },
      "webhook-sweep": async (p: Payload<"webhook-sweep">) => {
        seen.push({ name: "webhook-sweep", payload: p, at: Date.now() });
      },
      "alert-delivery": async (p: Payload<"alert-delivery">) => {
        seen.push({ name: "alert-delivery", payload: p, at: Date.now() });
      },
      "alert-tick": async (p: Payload<"alert-tick">) => {
        seen.push({ name: "alert-tick", payload: p, at: Date.now() });
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

  it("runs a repeatable job again and again (the hourly report tick), and registering it twice keeps one schedule", async () => {
    runner = runners[kind]();
    const seen: { name: string; payload: unknown; at: number }[] = [];
    await runner.start(processors(seen));
    await runner.repeat("reports", {}, { id: "reports-tick", everyMs: 300 });
    await runner.repeat("reports", {}, { id: "reports-tick", everyMs: 300 });
    await until(() => seen.filter((s) => s.name === "reports").length >= 3);
    const ticks = seen.filter((s) => s.name === "reports");
    expect(ticks[0]!.payload).toEqual({});
    // One schedule: ticks come about 300 ms apart, never two at once.
    for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.at - ticks[i - 1]!.at).toBeGreaterThan(150);
  });

  it("refuses an invalid payload", async () => {
    runner = runners[kind]();
    await expect(runner.enqueue("install-retry", { deviceId: "", packageName: "x" })).rejects.toThrow();
  });
});
