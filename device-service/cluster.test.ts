import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createRedisBus, type Bus } from "./bus";
import { issueCommand } from "./commands/outbox";
import { fleetDeviceId, MiniPhone, provisionFleet } from "./simulator/fleet";
import { freePort, TEST_REDIS_URL, waitFor } from "../server/harness.testing";

const PHONES = 6;

/**
 * Issue 22 item 1: `DEVICE_PROCESSES=2 npx tsx server/device.ts` is two device processes behind one
 * port (Node's cluster), on the real PostgreSQL and Redis. A command issued on another process (here: this
 * test, a web process with its own Redis bus) reaches the phone on whichever process holds its socket,
 * exactly once and in order; kill -9 of that process loses nothing, and presence is right within seconds.
 */
describe("device service as several processes behind one port", () => {
  let tdb: TestDb;
  let proc: ChildProcess;
  let out = "";
  let url = "";
  let bus: Bus;
  const phones: MiniPhone[] = [];
  const deps = () => ({ db: tdb.db, bus, log: () => {} });

  const holderPid = async (i: number) => {
    const r = await tdb.db
      .selectFrom("device_status")
      .select(["online", "online_process"])
      .where("device_id", "=", fleetDeviceId(i))
      .executeTakeFirst();
    return r?.online ? Number(r.online_process?.split(":")[1]) : null;
  };
  const status = async (ids: string[]) =>
    (await tdb.db.selectFrom("device_commands").select(["id", "status"]).where("id", "in", ids).execute()).map((r) => r.status);

  beforeAll(async () => {
    tdb = await createTestDb("postgres");
    await provisionFleet(tdb.db, PHONES, "2000-01-02T00:00:00.000Z");
    bus = createRedisBus(TEST_REDIS_URL, () => {}, { name: `cluster-test-${randomBytes(3).toString("hex")}` });
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = spawn(process.execPath, ["--import", "tsx", "server/device.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DEVICE_PROCESSES: "2",
        // Round robin: six phones one after another are dealt three to each process (with the default, the kernel's
        // queue, which process takes a phone is up to the kernel), so a command from elsewhere reaches both.
        DEVICE_CLUSTER_SCHEDULING: "rr",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: tdb.url,
        REDIS_URL: TEST_REDIS_URL,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), "cluster-")),
        SESSION_SECRET: "x".repeat(40),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout!.on("data", (d) => (out += d));
    proc.stderr!.on("data", (d) => (out += d));
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`the device service exited: ${out}`);
        return /device service listening on .*\(2 processes/.test(out);
      },
      60_000,
      100,
    );
  }, 90_000);

  afterAll(async () => {
    phones.forEach((p) => p.close());
    if (proc?.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
    await bus?.close();
    await tdb?.destroy();
  }, 60_000);

  it("phones on one address are spread over both processes, and a command issued elsewhere reaches each one", async () => {
    for (let i = 0; i < PHONES; i++) {
      const p = new MiniPhone(i, { url: url.replace("http", "ws"), backoffBaseMs: 50, backoffCapMs: 500 });
      phones.push(p);
      p.connect();
      await p.whenReady();
    }
    const pids = await Promise.all(phones.map((_, i) => holderPid(i)));
    expect(pids.every((p) => p !== null && p !== proc.pid)).toBe(true);
    expect(new Set(pids).size).toBe(2);
    const cmds = await Promise.all(phones.map((_, i) => issueCommand(deps(), { deviceId: fleetDeviceId(i), type: "LOCK" })));
    await waitFor(async () => (await status(cmds.map((c) => c.id))).every((s) => s === "acknowledged"), 15_000);
    phones.forEach((p, i) => expect(p.executed).toEqual([cmds[i].id]));
  }, 60_000);

  it("kill -9 of a phone's process: it reconnects to the other, every command arrives once and in order, presence is right", async () => {
    const pid = (await holderPid(0))!;
    const onSame: number[] = [];
    for (let i = 1; i < PHONES; i++) if ((await holderPid(i)) === pid) onSame.push(i);
    expect(onSame.length).toBeGreaterThan(0);
    // A phone on the same process that is switched off at the same moment: it never comes back.
    const gone = onSame[0];
    phones[gone].stopped = true;
    const before = phones[0].executed.length;
    const first = [];
    for (let k = 0; k < 5; k++) first.push(await issueCommand(deps(), { deviceId: fleetDeviceId(0), type: k % 2 ? "RING" : "LOCK" }));
    process.kill(pid, "SIGKILL");
    const second = [];
    for (let k = 0; k < 5; k++) second.push(await issueCommand(deps(), { deviceId: fleetDeviceId(0), type: k % 2 ? "RING" : "LOCK" }));
    const ids = [...first, ...second].map((c) => c.id);
    await waitFor(async () => (await status(ids)).every((s) => s === "acknowledged"), 30_000, 100);
    // Executed once each, in the order issued (a command in flight at the kill may arrive twice; the phone
    // acknowledges it again by id and does not run it again).
    expect(phones[0].executed.slice(before)).toEqual(ids);
    const now = await holderPid(0);
    expect(now).not.toBeNull();
    expect(now).not.toBe(pid);
    // The switched-off phone of the dead process reads offline within seconds (presence heartbeat + sweep).
    await waitFor(async () => (await holderPid(gone)) === null, 20_000, 200);
    // The cluster replaced the dead process.
    await waitFor(async () => /starting another/.test(out) && /device process \d+ listening/.test(out), 30_000, 200);
  }, 90_000);
});
