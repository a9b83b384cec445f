import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../core/ids.server";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { createRedisBus, type Bus, type BusMessage } from "./bus";
import { fleetDeviceId, FLEET_PARENT_ID, FLEET_PROFILE_ID, provisionFleet } from "./simulator/fleet";
import { setOffline } from "./socket/status-rows";
import { PRESENCE_REGISTRY, PRESENCE_REGISTRY_KEEP_MS, startPresence, type Presence } from "./socket/presence";
import { TEST_REDIS_URL, waitFor } from "../server/harness.testing";

/**
 * Issue 22: a device-service process killed with kill -9 used to leave its phones "online" for good. Each
 * process now beats a key in Redis; the others mark the phones of a process whose key expired offline.
 */
describe.each(DIALECTS)("presence across device processes (%s)", (dialect) => {
  let t: TestDb;
  let bus: Bus;
  let redis: Redis;
  let live: Presence;
  const heard: BusMessage[] = [];
  const tag = randomBytes(4).toString("hex");
  const dead = `dead-${tag}`;
  const otherLive = `other-${tag}`;

  beforeAll(async () => {
    t = await createTestDb(dialect);
    await provisionFleet(t.db, 4, "2000-01-02T00:00:00.000Z");
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
    redis.on("error", () => {});
    bus = createRedisBus(TEST_REDIS_URL, () => {}, { name: `presence-test-${tag}` });
    bus.subscribe((m) => heard.push(m));
    // A process that is alive (its key is there) without being this one.
    await redis.set(`kids-portal:device-process:${otherLive}`, "1", "PX", 60_000);
    live = await startPresence({ redisUrl: TEST_REDIS_URL, db: t.db, bus, log: () => {}, processId: `live-${tag}`, sweepMs: 3_600_000 });
    const holders = [dead, dead, live.processId, otherLive];
    await t.db
      .insertInto("device_status")
      .values(
        holders.map((p, i) => ({
          device_id: fleetDeviceId(i),
          online: 1,
          online_process: p,
          battery_percentage: null,
          battery_checked_at: null,
          additional_data: null,
          app_version: null,
          updated_at: nowIso(),
        })),
      )
      .execute();
  }, 30_000);

  afterAll(async () => {
    await live?.close();
    await redis?.del(`kids-portal:device-process:${otherLive}`);
    redis?.disconnect();
    await bus?.close();
    await t?.destroy();
  });

  const online = async () =>
    Object.fromEntries(
      (await t.db.selectFrom("device_status").select(["device_id", "online"]).orderBy("device_id").execute()).map((r) => [
        r.device_id,
        Number(r.online),
      ]),
    );

  it("marks offline the phones of a process whose heartbeat is gone, and only those; their parents hear it", async () => {
    expect(await redis.exists(`kids-portal:device-process:${live.processId}`)).toBe(1);
    expect(await live.sweep()).toBe(2);
    expect(await online()).toEqual({ [fleetDeviceId(0)]: 0, [fleetDeviceId(1)]: 0, [fleetDeviceId(2)]: 1, [fleetDeviceId(3)]: 1 });
    await waitFor(async () =>
      heard.some((m) => m.type === "parent.refresh" && m.profileId === FLEET_PROFILE_ID && m.parentIds.includes(FLEET_PARENT_ID)),
    );
  });

  it("a late close on an old process does not hide a phone that reconnected to another one", async () => {
    await setOffline(t.db, fleetDeviceId(3), dead);
    expect((await online())[fleetDeviceId(3)]).toBe(1);
    await setOffline(t.db, fleetDeviceId(3), otherLive);
    expect((await online())[fleetDeviceId(3)]).toBe(0);
  });

  it("a process that stops cleanly removes its key and leaves the registry", async () => {
    const p = await startPresence({ redisUrl: TEST_REDIS_URL, db: t.db, bus, log: () => {}, sweepMs: 3_600_000 });
    expect(await redis.exists(`kids-portal:device-process:${p.processId}`)).toBe(1);
    expect(await redis.zscore(PRESENCE_REGISTRY, p.processId)).not.toBeNull();
    await p.close();
    expect(await redis.exists(`kids-portal:device-process:${p.processId}`)).toBe(0);
    expect(await redis.zscore(PRESENCE_REGISTRY, p.processId)).toBeNull();
  });

  it("the quick sweep finds a killed process through the registry, without reading every phone's process", async () => {
    // A process that beat (it is in the registry) and was killed: its key expires, its phones are still online.
    const killed = await startPresence({
      redisUrl: TEST_REDIS_URL,
      db: t.db,
      bus,
      log: () => {},
      sweepMs: 3_600_000,
      fullSweepMs: 3_600_000,
      heartbeatMs: 3_600_000,
    });
    await t.db
      .updateTable("device_status")
      .set({ online: 1, online_process: killed.processId })
      .where("device_id", "in", [fleetDeviceId(0), fleetDeviceId(1)])
      .execute();
    expect(await live.quickSweep()).toBe(0);
    // Its key expires (as after kill -9: no more beats).
    await redis.del(`kids-portal:device-process:${killed.processId}`);
    expect(await live.quickSweep()).toBe(2);
    expect(await online()).toMatchObject({ [fleetDeviceId(0)]: 0, [fleetDeviceId(1)]: 0, [fleetDeviceId(2)]: 1 });
    // A registry entry older than the keep time is dropped.
    await redis.zadd(PRESENCE_REGISTRY, Date.now() - PRESENCE_REGISTRY_KEEP_MS - 1_000, `ancient-${tag}`);
    await live.quickSweep();
    expect(await redis.zscore(PRESENCE_REGISTRY, `ancient-${tag}`)).toBeNull();
    await killed.close();
  });
});
