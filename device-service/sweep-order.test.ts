import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nowIso } from "../core/ids.server";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import { fleetDeviceId, provisionFleet } from "./simulator/fleet";
import { startPresence, type Presence } from "./socket/presence";
import { handleDeviceMessage } from "./socket/telemetry";
import { TEST_REDIS_URL } from "../server/harness.testing";

/**
 * After kill -9 of a device process its phones come back to the others (their statuses written in batches,
 * socket/telemetry.ts) while a survivor sweeps the dead process's phones offline (socket/presence.ts). Both
 * update the same device_status rows. At 50,000 phones PostgreSQL ended hundreds of status frames with
 * "deadlock detected": the batch locked rows in the order the phones arrived, the sweep in the table's order.
 * Both now take them in phone id order. Here the phones arrive in descending id order while the sweep runs,
 * several rounds, and PostgreSQL's own deadlock counter for the database must not move.
 */
const PHONES = 1_500;
const comesBack = (i: number) => i % 3 !== 0;

describe("a sweep and the phones coming back, at once (postgres)", () => {
  let t: TestDb;
  let live: Presence;
  const tag = randomBytes(4).toString("hex");
  const bus = createLocalBus();
  const log = () => {};

  beforeAll(async () => {
    t = await createTestDb("postgres");
    await provisionFleet(t.db, PHONES, "2000-01-02T00:00:00.000Z");
    live = await startPresence({
      redisUrl: TEST_REDIS_URL,
      db: t.db,
      bus,
      log,
      processId: `survivor-${tag}`,
      sweepMs: 3_600_000,
      fullSweepMs: 3_600_000,
    });
  }, 60_000);

  afterAll(async () => {
    await live?.close();
    await t?.destroy();
  });

  const deadlocks = async () =>
    Number(
      (await sql<{ deadlocks: string }>`SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`.execute(t.db)).rows[0]
        .deadlocks,
    );
  /** Statistics reach pg_stat_database when a backend goes idle, at most a second late; a fresh snapshot each read. */
  const settledDeadlocks = async () => {
    await new Promise((r) => setTimeout(r, 1_200));
    await sql`SELECT pg_stat_clear_snapshot()`.execute(t.db);
    return deadlocks();
  };

  it("every status is written and no deadlock is reported", async () => {
    const before = await settledDeadlocks();
    for (let round = 0; round < 4; round++) {
      // Every phone online on a process that was just killed.
      const dead = `dead-${tag}-${round}`;
      await t.db.deleteFrom("device_status").execute();
      await t.db
        .insertInto("device_status")
        .values(
          Array.from({ length: PHONES }, (_, i) => ({
            device_id: fleetDeviceId(i),
            online: 1,
            online_process: dead,
            battery_percentage: null,
            battery_checked_at: null,
            additional_data: null,
            app_version: null,
            updated_at: nowIso(),
          })),
        )
        .execute();
      const back = `back-${tag}-${round}`;
      const deps = { db: t.db, bus, log, processId: back };
      // Two phones in three come back (in descending id order) while the sweep runs; the third stays silent, so the
      // sweep has phones to mark offline however the two interleave (it read none when the statuses came first).
      const statuses = Array.from({ length: PHONES }, (_, k) => PHONES - 1 - k)
        .filter(comesBack)
        .map((i) =>
          handleDeviceMessage(
            deps,
            {
              id: fleetDeviceId(i),
              profile_id: "fleetkid",
              serial_number: `S${i}`,
              enrolled_at: "2000-01-02T00:00:00.000Z",
              app_version: "3.8.1",
              fcm_token: null,
            },
            {
              event: "child_status",
              id: `s${round}-${i}`,
              data: {
                batteryPercentage: 80,
                wifiConnected: true,
                kidsAppStatus: "Healthy",
                missingPermissions: [],
                appVersion: "3.8.1",
                protectionState: true,
              },
            },
          ),
        );
      const [swept] = await Promise.all([live.sweep(), ...statuses]);
      expect(swept).toBeGreaterThanOrEqual(PHONES - statuses.length);
      const rows = await t.db.selectFrom("device_status").select(["device_id", "online", "online_process"]).execute();
      const silent = new Set(
        Array.from({ length: PHONES }, (_, i) => i)
          .filter((i) => !comesBack(i))
          .map(fleetDeviceId),
      );
      expect(rows.filter((r) => silent.has(r.device_id) && Number(r.online) !== 0)).toEqual([]);
      // A phone is online on the process it came back to, or offline (swept after its status): never on the dead one.
      expect(rows.filter((r) => !(Number(r.online) === 1 ? r.online_process === back : r.online_process === null))).toEqual([]);
    }
    expect(await settledDeadlocks()).toBe(before);
  }, 120_000);
});
