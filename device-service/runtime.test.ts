import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../db/seed/index";
import { createTestDb, type TestDb } from "../db/testing";
import { createLocalBus } from "./bus";
import { createDeviceRuntime } from "./runtime";

describe("device runtime start-up (single process)", () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    await seedDemo(t.db);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("marks phones left 'online' by a crashed run offline, so commands go by push until they reconnect", async () => {
    await t.db.updateTable("device_status").set({ online: 1 }).execute();
    const runtime = await createDeviceRuntime({ db: t.db, bus: createLocalBus(), log: () => {}, runWorkers: false });
    try {
      const rows = await t.db.selectFrom("device_status").select("online").execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.online === 0)).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});
