import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import { issueCommand, pendingCommands } from "./commands/outbox";
import { fleetDeviceId, provisionFleet } from "./simulator/fleet";

/** Issue 22: commands reach a phone in the order they were issued, even many within one millisecond. */
describe.each(DIALECTS)("command order (%s)", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await provisionFleet(t.db, 3, "2000-01-02T00:00:00.000Z");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a burst of commands is read back for delivery in issue order", async () => {
    const deps = { db: t.db, bus: createLocalBus(), log: () => {} };
    const issued = await Promise.all(
      Array.from({ length: 40 }, (_, i) => issueCommand(deps, { deviceId: fleetDeviceId(0), type: i % 2 ? "LOCK" : "RING" })),
    );
    const pending = await pendingCommands(t.db, fleetDeviceId(0), true);
    expect(pending.map((c) => c.id)).toEqual(issued.map((c) => c.id));
    expect(new Set(issued.map((c) => c.created_at)).size).toBe(40);
  });

  it("phones reading their outboxes at once are answered by one query, each its own commands in issue order, at most 200", async () => {
    const deps = { db: t.db, bus: createLocalBus(), log: () => {} };
    const [a, b, c] = [fleetDeviceId(1), fleetDeviceId(2), fleetDeviceId(0)];
    for (let i = 0; i < 210; i++) await issueCommand(deps, { deviceId: a, type: "RING", ttlMs: null });
    const mine = await Promise.all(Array.from({ length: 3 }, () => issueCommand(deps, { deviceId: b, type: "LOCK", ttlMs: null })));
    let queries = 0;
    const counted = t.db.withPlugin({ transformQuery: (x) => x.node, transformResult: async (x) => (queries++, x.result) });
    const before = await pendingCommands(t.db, c, true);
    const [forA, forB, forC] = await Promise.all([
      pendingCommands(counted, a, true),
      pendingCommands(counted, b, true),
      pendingCommands(counted, c, true),
    ]);
    expect(queries).toBe(1);
    expect(forA).toHaveLength(200);
    expect(forA.every((x) => x.device_id === a)).toBe(true);
    expect(forA.map((x) => x.created_at)).toEqual([...forA.map((x) => x.created_at)].sort());
    expect(forB.map((x) => x.id)).toEqual(mine.map((x) => x.id));
    expect(forC.map((x) => x.id)).toEqual(before.map((x) => x.id));
    expect(forA[0]).not.toHaveProperty("kp_rank");
  });
});
