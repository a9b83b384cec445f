import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../db/queries/sessions";
import { seedDemo } from "../db/seed/index";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createRedisBus, type Bus, type BusMessage } from "./bus";
import { createEnrollmentToken } from "./enrollment";
import { SimulatedPhone } from "./simulator/phone";
import { freePort, TEST_REDIS_URL, waitFor } from "../server/harness.testing";

async function startProcess(env: Record<string, string>, port: number): Promise<{ proc: ChildProcess; url: string; output: () => string }> {
  let out = "";
  const proc = spawn(process.execPath, ["--import", "tsx", "server/device.ts"], {
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    30_000,
    200,
  );
  return { proc, url, output: () => out };
}

/**
 * Two real server processes sharing one PostgreSQL and the local Redis: a phone connected to A obeys a
 * command a parent issues on B, B sees the acknowledgement, and the parent's dashboards (on any process)
 * hear about it through Redis.
 */
describe("two processes through Redis", () => {
  let tdb: TestDb;
  let a: Awaited<ReturnType<typeof startProcess>>;
  let b: Awaited<ReturnType<typeof startProcess>>;
  let bus: Bus;
  const heard: BusMessage[] = [];
  let phone: SimulatedPhone | undefined;

  beforeAll(async () => {
    tdb = await createTestDb("postgres");
    await seedDemo(tdb.db);
    const env = {
      NODE_ENV: "test",
      DATABASE_URL: tdb.url,
      REDIS_URL: TEST_REDIS_URL,
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "two-proc-")),
      SESSION_SECRET: "x".repeat(40),
      LOG_LEVEL: "warn",
      KIDS_APP_API_KEY: "k",
    };
    bus = createRedisBus(TEST_REDIS_URL);
    bus.subscribe((m) => heard.push(m));
    a = await startProcess(env, await freePort());
    b = await startProcess(env, await freePort());
  }, 90_000);

  afterAll(async () => {
    await phone?.close();
    for (const p of [a, b]) {
      if (p?.proc.exitCode === null) {
        const exited = new Promise((r) => p.proc.once("exit", r));
        p.proc.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
    }
    await bus?.close();
    await tdb?.destroy();
  }, 60_000);

  it("a phone on process A gets a command issued on process B; B sees it acknowledged; dashboards hear it", async () => {
    const db = tdb.db;
    const dev = await db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .select(["devices.id", "devices.profile_id", "kid_profiles.parent_id"])
      .where("serial_number", "=", "DEMO-MIA-0001")
      .executeTakeFirstOrThrow();
    const { token } = await createEnrollmentToken(db, { profileId: dev.profile_id, parentId: dev.parent_id });
    phone = new SimulatedPhone({ baseUrl: a.url, serialNumber: "DEMO-MIA-0001" });
    await phone.enroll(token);
    await phone.connect();
    expect(await (await fetch(`${a.url}/healthz`)).json()).toMatchObject({ sockets: 1 });
    expect(await (await fetch(`${b.url}/healthz`)).json()).toMatchObject({ sockets: 0 });

    const session = await createSession(db, dev.parent_id, { idleMinutes: 60, absoluteDays: 1 });
    const res = await fetch(`${b.url}/trpc/device.issueCommand`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${session}` },
      body: JSON.stringify({ serialNumber: "DEMO-MIA-0001", type: "LOCK" }),
    });
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { data: { commandId: string; respones_msg: string } } };
    expect(result.data.respones_msg).toBe("Lock command sent to Mia's phone.");
    const got = await phone.waitForCommand("LOCK", 10_000);
    expect(got.id).toBe(result.data.commandId);
    await waitFor(async () => phone!.state.locked);

    const status = await waitFor(async () => {
      const r = await fetch(
        `${b.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: "DEMO-MIA-0001" }))}`,
        { headers: { Authorization: `Bearer ${session}` } },
      );
      const list = ((await r.json()) as { result: { data: { id: string; status: string }[] } }).result.data;
      const c = list.find((x) => x.id === result.data.commandId);
      return c?.status === "acknowledged" && c;
    }, 10_000);
    expect(status.status).toBe("acknowledged");
    await waitFor(async () =>
      heard.some((m) => m.type === "parent.refresh" && m.reason === "command.acknowledged" && m.parentIds.includes(dev.parent_id)),
    );
  }, 60_000);

  it("sleep mode set on B: the delayed 2 s reload runs on BullMQ and the policy acknowledgement comes from the phone on A", async () => {
    const dev = await tdb.db
      .selectFrom("devices")
      .select(["id", "profile_id"])
      .where("serial_number", "=", "DEMO-MIA-0001")
      .executeTakeFirstOrThrow();
    const parent = await tdb.db.selectFrom("kid_profiles").select("parent_id").where("id", "=", dev.profile_id).executeTakeFirstOrThrow();
    const session = await createSession(tdb.db, parent.parent_id, { idleMinutes: 60, absoluteDays: 1 });
    heard.length = 0;
    const res = await fetch(`${b.url}/trpc/kids.setSleepMode`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${session}` },
      body: JSON.stringify({ profileId: dev.profile_id, sleepMode: true }),
    });
    expect(res.status).toBe(200);
    const v = ((await res.json()) as { result: { data: { policyVersion: number } } }).result.data.policyVersion;
    await waitFor(async () => phone!.state.policyVersion === v, 10_000);
    await waitFor(async () => heard.some((m) => m.type === "parent.refresh" && m.reason === "reload.sleep-mode"), 10_000);
  }, 30_000);

  it("operators see the Bull Board at /admin/queues; parents get 403", async () => {
    const op = await tdb.db.selectFrom("parents").select("id").where("role", "=", "operator").executeTakeFirstOrThrow();
    const parent = await tdb.db.selectFrom("parents").select("id").where("role", "=", "parent").executeTakeFirstOrThrow();
    const opRes = await fetch(`${b.url}/admin/queues`, {
      headers: { Authorization: `Bearer ${await createSession(tdb.db, op.id, { idleMinutes: 60, absoluteDays: 1 })}` },
    });
    expect(opRes.status).toBe(200);
    expect(await opRes.text()).toMatch(/bull/i);
    const api = await fetch(`${b.url}/admin/queues/api/queues`, {
      headers: { Authorization: `Bearer ${await createSession(tdb.db, op.id, { idleMinutes: 60, absoluteDays: 1 })}` },
    });
    const names = ((await api.json()) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual([
      "alert-delivery",
      "alert-tick",
      "command-expiry",
      "daily-reset",
      "install-retry",
      "kids-refresh",
      "reports",
      "webhook-delivery",
      "webhook-sweep",
    ]);
    const pRes = await fetch(`${b.url}/admin/queues`, {
      headers: { Authorization: `Bearer ${await createSession(tdb.db, parent.id, { idleMinutes: 60, absoluteDays: 1 })}` },
    });
    expect(pRes.status).toBe(403);
    const pApi = await fetch(`${b.url}/admin/queues/api/queues`, {
      headers: { Authorization: `Bearer ${await createSession(tdb.db, parent.id, { idleMinutes: 60, absoluteDays: 1 })}` },
    });
    expect(pApi.status).toBe(403);
  }, 30_000);
});
