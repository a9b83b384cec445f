import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisBus, type Bus, type BusMessage } from "../device-service/bus";
import { createBullRunner, type BullRunner } from "./bullmq";
import type { Payload, Processors } from "../core/job-queues";

// A Redis restart as the app sees it: every connection of this process killed at once (CLIENT KILL), while the
// BullMQ workers and the bus run. Only this test's connections (named after its prefix) are killed.
const REDIS = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `test-restart-${randomBytes(4).toString("hex")}`;

let admin: Redis;
let runner: BullRunner;
let bus: Bus;
const logs: string[] = [];
const log = (_level: string, msg: string, extra?: Record<string, unknown>) => void logs.push(`${msg} ${JSON.stringify(extra ?? {})}`);

/** Resolves when `kids-refresh` has run for this profileId. */
const processed = new Map<string, () => void>();
const jobDone = (profileId: string) => new Promise<void>((resolve) => processed.set(profileId, resolve));
const processors: Processors = {
  "kids-refresh": async (p: Payload<"kids-refresh">) => processed.get(p.profileId)?.(),
  "command-expiry": async () => {},
  "install-retry": async () => {},
  "daily-reset": async () => {},
  reports: async () => {},
  "webhook-delivery": async () => {},
  "webhook-sweep": async () => {},
  "alert-delivery": async () => {},
  "alert-tick": async () => {},
};

/** Resolves on the bus's next (re)subscription, acknowledged by Redis. */
let subscribedWaiter: (() => void) | undefined;
const nextSubscription = () => new Promise<void>((resolve) => (subscribedWaiter = resolve));
const busMessage = (deviceId: string) =>
  new Promise<void>((resolve) => {
    const off = bus.subscribe((m: BusMessage) => {
      if (m.type === "device.command" && m.deviceId === deviceId) {
        off();
        resolve();
      }
    });
  });

async function ourClients(): Promise<{ id: string; name: string }[]> {
  const list = (await admin.client("LIST")) as string;
  return list
    .split("\n")
    .map((line) => ({ id: /\bid=(\d+)/.exec(line)?.[1] ?? "", name: /\bname=(\S*)/.exec(line)?.[1] ?? "" }))
    .filter((c) => c.name.startsWith(`${prefix}:`));
}

beforeAll(async () => {
  admin = new Redis(REDIS, { maxRetriesPerRequest: 1 });
  admin.on("error", () => {});
  runner = createBullRunner({ redisUrl: REDIS, prefix, log });
  await runner.start(processors);
  const subscribed = nextSubscription();
  bus = createRedisBus(REDIS, (m) => log("error", m), { name: `${prefix}:bus`, onSubscribed: () => subscribedWaiter?.() });
  await subscribed;
});
afterAll(async () => {
  await runner?.close();
  await bus?.close();
  await Promise.all((await ourClients()).map((c) => admin.client("KILL", "ID", c.id)));
  await admin?.quit();
});

describe("a Redis connection restart", () => {
  it("names every connection, so an operator (and this test) can tell them apart", async () => {
    const names = (await ourClients()).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining([`${prefix}:producer`, `${prefix}:worker`, `${prefix}:bus:pub`, `${prefix}:bus:sub`]));
    // BullMQ's blocking connection per queue is named after the prefix too.
    expect(names.length).toBeGreaterThanOrEqual(7);
  });

  it("is survived: a job enqueued afterwards is processed and a bus message is delivered", async () => {
    const before = jobDone("before");
    await runner.enqueue("kids-refresh", { profileId: "before", reason: "test" });
    await before;
    const delivered = busMessage("d-before");
    await bus.publish({ type: "device.command", deviceId: "d-before" });
    await delivered;

    const resubscribed = nextSubscription();
    const clients = await ourClients();
    expect(clients.length).toBeGreaterThanOrEqual(7);
    for (const c of clients) expect(await admin.client("KILL", "ID", c.id)).toBe(1);

    // Straight after the kill: the producer waits for its reconnection instead of failing the enqueue.
    const after = jobDone("after");
    await runner.enqueue("kids-refresh", { profileId: "after", reason: "test" });
    await after;

    await resubscribed;
    const deliveredAfter = busMessage("d-after");
    await bus.publish({ type: "device.command", deviceId: "d-after" });
    await deliveredAfter;
  });
});
