import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../db/seed/index";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import type { JobRunner } from "../core/job-queues";
import { createDeviceRuntime } from "./runtime";

/** Queues that keep nothing: this start-up needs none. */
const noJobs: JobRunner = {
  kind: "in-process",
  enqueue: async () => {},
  repeat: async () => {},
  start: async () => {},
  counts: async () => [],
  close: async () => {},
};

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
    const runtime = await createDeviceRuntime({ db: t.db, bus: createLocalBus(), log: () => {}, jobs: noJobs });
    try {
      const rows = await t.db.selectFrom("device_status").select("online").execute();
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((r) => r.online === 0)).toBe(true);
    } finally {
      await runtime.close();
    }
  });
});
