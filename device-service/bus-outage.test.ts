import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "./bus";
import { issueCommand } from "./commands/outbox";
import { startHarness, TEST_REDIS_URL, type Harness } from "../server/harness.testing";

// Redis pub/sub keeps nothing: a "new command" published while the subscriber is away never arrives. The command
// is safe in the outbox; this checks the phone still gets it as soon as the subscription is back.
const MIA = "DEMO-MIA-0001";
const busName = `test-bus-outage-${randomBytes(4).toString("hex")}`;

let h: Harness;
let admin: Redis;
let subscribedWaiter: (() => void) | undefined;
const nextSubscription = () => new Promise<void>((resolve) => (subscribedWaiter = resolve));

beforeAll(async () => {
  admin = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  admin.on("error", () => {});
  const first = nextSubscription();
  h = await startHarness({ redisUrl: TEST_REDIS_URL, busName, onBusSubscribed: () => subscribedWaiter?.() });
  await first;
});
afterAll(async () => {
  await h?.close();
  admin?.disconnect();
});

describe("device commands across a Redis subscriber outage", () => {
  it("the bus tells its listeners when its subscription comes back", async () => {
    const seen: BusMessage[] = [];
    const off = h.bus.subscribe((m) => void seen.push(m));
    const back = nextSubscription();
    // Kill exactly this test's subscriber connection.
    const list = (await admin.client("LIST")) as string;
    const id = list
      .split("\n")
      .find((l) => l.includes(`name=${busName}:sub`))
      ?.match(/\bid=(\d+)/)?.[1];
    expect(id).toBeTruthy();
    await admin.client("KILL", "ID", id!);
    await back;
    off();
    expect(seen).toContainEqual({ type: "bus.resubscribed" });
  });

  it("a command whose bus message was lost reaches the connected phone once the subscription is back", async () => {
    const phone = await h.phone(MIA);
    const { deviceId } = await h.kid(MIA);
    // The command is written to the outbox, but its "new command" message is lost (as during an outage).
    const lostBus = { ...h.bus, publish: async () => {} };
    const cmd = await issueCommand({ ...h.runtime.deps, bus: lostBus }, { deviceId, type: "LOCK" });
    const got = phone.waitForCommand("LOCK", 5_000, (c) => c.id === cmd.id);
    await h.bus.publish({ type: "bus.resubscribed" });
    await got;
  });
});
