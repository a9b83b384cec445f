import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../db/testing";
import { createLocalBus } from "./bus";
import { issueCommand, pendingCommands } from "./commands/outbox";
import { fleetDeviceId, provisionFleet } from "./simulator/fleet";

/** Issue 22: commands reach a phone in the order they were issued, even many within one millisecond. */
describe.each(DIALECTS)("command order (%s)", (dialect) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    await provisionFleet(t.db, 1, "2000-01-02T00:00:00.000Z");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("a burst of commands is read back for delivery in issue order", async () => {
    const deps = { db: t.db, bus: createLocalBus(), log: () => {} };
    const issued = await Promise.all(Array.from({ length: 40 }, (_, i) => issueCommand(deps, { deviceId: fleetDeviceId(0), type: i % 2 ? "LOCK" : "RING" })));
    const pending = await pendingCommands(t.db, fleetDeviceId(0), true);
    expect(pending.map((c) => c.id)).toEqual(issued.map((c) => c.id));
    expect(new Set(issued.map((c) => c.created_at)).size).toBe(40);
  });
});
