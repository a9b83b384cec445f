import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "../../device-service/bus";
import { EXPIRY_SWEEP_MS, issueCommand, scheduleExpiry } from "../../device-service/commands/outbox";
import { commandExpiry } from "./command-expiry";
import { recoverJobs } from "../recover";
import type { EnqueueOptions, JobQueue } from "../../core/job-queues";
import { DIALECTS } from "../../db/index.testing";
import { startHarness, waitFor, type Harness } from "../../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

/** A job queue that records what it is asked for (and fails when told to). */
function recordingQueue() {
  const asked: { name: string; payload: unknown; opts?: EnqueueOptions }[] = [];
  let failNext = 0;
  const queue: JobQueue = {
    async enqueue(name, payload, opts) {
      asked.push({ name, payload, opts });
      if (failNext > 0) {
        failNext--;
        throw new Error("redis is away");
      }
    },
    async repeat() {},
  };
  return { queue, asked, failNext: (n: number) => void (failNext = n) };
}

/** One-shot commands expire through one sweep per second of expiries, not a delayed job each. */
describe("command expiry sweeps", () => {
  it("the commands expiring within one second share one job, asked for once per process; a failed ask is asked again", async () => {
    const q = recordingQueue();
    const logged: string[] = [];
    const deps = { jobs: q.queue, log: (_l: string, m: string) => void logged.push(m) };
    const second = 1_900_000_000_000;
    await Promise.all([
      scheduleExpiry(deps, second + 1),
      scheduleExpiry(deps, second + 999),
      scheduleExpiry(deps, second + EXPIRY_SWEEP_MS),
    ]);
    expect(q.asked).toHaveLength(1);
    expect(q.asked[0]).toMatchObject({
      name: "command-expiry",
      payload: { until: new Date(second + 1000).toISOString() },
      opts: { jobId: `expire-at-${second + 1000}` },
    });
    // The job runs just after its second.
    expect(q.asked[0].opts!.delayMs).toBeGreaterThanOrEqual(second + 1000 - Date.now());
    await scheduleExpiry(deps, second + 1001);
    expect(q.asked.map((a) => a.opts?.jobId)).toEqual([`expire-at-${second + 1000}`, `expire-at-${second + 2000}`]);

    q.failNext(1);
    await scheduleExpiry(deps, second + 5000);
    expect(logged).toEqual(["command expiry not scheduled"]);
    await scheduleExpiry(deps, second + 4500);
    expect(q.asked.filter((a) => a.opts?.jobId === `expire-at-${second + 5000}`)).toHaveLength(2);
    await scheduleExpiry(deps, second + 4800);
    expect(q.asked.filter((a) => a.opts?.jobId === `expire-at-${second + 5000}`)).toHaveLength(2);
  });

  describe.each(DIALECTS)("on %s", (dialect) => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ dialect });
    }, 60_000);
    afterAll(async () => {
      await h?.close();
    });

    it("a sweep closes every overdue open command, leaves the rest, and tells each kid's parents once", async () => {
      const mia = await h.kid(MIA);
      const leo = await h.kid(LEO);
      const q = recordingQueue();
      const deps = { ...h.runtime.deps, jobs: q.queue };
      const short = await Promise.all([
        issueCommand(deps, { deviceId: mia.deviceId, type: "RING", ttlMs: 50 }),
        issueCommand(deps, { deviceId: mia.deviceId, type: "RING", ttlMs: 60 }),
        issueCommand(deps, { deviceId: leo.deviceId, type: "RING", ttlMs: 50 }),
      ]);
      const long = await issueCommand(deps, { deviceId: leo.deviceId, type: "RING" });
      const done = await issueCommand(deps, { deviceId: mia.deviceId, type: "RING", ttlMs: 50 });
      await h.tdb.db.updateTable("device_commands").set({ status: "acknowledged" }).where("id", "=", done.id).execute();
      const sweeps = q.asked.filter((a) => a.name === "command-expiry");
      expect(sweeps.length).toBeGreaterThanOrEqual(2);
      expect(sweeps.length).toBeLessThanOrEqual(3);
      expect(sweeps.every((s) => "until" in (s.payload as object))).toBe(true);

      const heard: BusMessage[] = [];
      const off = h.bus.subscribe((m) => void heard.push(m));
      try {
        await new Promise((r) => setTimeout(r, 80));
        await commandExpiry(h.runtime.deps, sweeps[0].payload as { until: string });
        const status = async (id: string) =>
          (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
        for (const c of short) expect(await status(c.id)).toBe("expired");
        expect(await status(long.id)).toBe("queued");
        expect(await status(done.id)).toBe("acknowledged");
        await waitFor(async () => heard.filter((m) => m.type === "parent.refresh" && m.reason === "command.expired").length === 2, 5_000);
        const told = heard.flatMap((m) => (m.type === "parent.refresh" && m.reason === "command.expired" ? [m.profileId] : []));
        expect(told.sort()).toEqual([mia.profileId, leo.profileId].sort());
        // Again: nothing left to close, nobody told.
        await commandExpiry(h.runtime.deps, sweeps[0].payload as { until: string });
        await new Promise((r) => setTimeout(r, 50));
        expect(heard.filter((m) => m.type === "parent.refresh" && m.reason === "command.expired")).toHaveLength(2);
      } finally {
        off();
      }
    });

    it("a job queued before sweeps (one command id) still closes its command", async () => {
      const { deviceId } = await h.kid(MIA);
      const cmd = await issueCommand({ ...h.runtime.deps, jobs: recordingQueue().queue }, { deviceId, type: "RING", ttlMs: 20 });
      await new Promise((r) => setTimeout(r, 40));
      await commandExpiry(h.runtime.deps, { commandId: cmd.id });
      expect(
        (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirstOrThrow()).status,
      ).toBe("expired");
    });

    it("recovery schedules one sweep per second of the open commands' expiries", async () => {
      const { deviceId } = await h.kid(LEO);
      await h.tdb.db.updateTable("device_commands").set({ status: "acknowledged" }).where("status", "in", ["queued", "sent"]).execute();
      const base = Math.ceil(Date.now() / 1000) * 1000 + 60_000;
      const expiries = [base + 100, base + 200, base + 900, base + 1500];
      for (const [i, at] of expiries.entries()) {
        const c = await issueCommand({ ...h.runtime.deps, jobs: recordingQueue().queue }, { deviceId, type: "RING", ttlMs: 600_000 + i });
        await h.tdb.db
          .updateTable("device_commands")
          .set({ expires_at: new Date(at).toISOString() })
          .where("id", "=", c.id)
          .execute();
      }
      const q = recordingQueue();
      const recovered = await recoverJobs({ ...h.runtime.deps, jobs: q.queue });
      expect(recovered.expiries).toBe(2);
      expect(
        q.asked
          .filter((a) => a.name === "command-expiry")
          .map((a) => a.opts?.jobId)
          .sort(),
      ).toEqual([`expire-at-${base + 1000}`, `expire-at-${base + 2000}`]);
    });
  });
});
