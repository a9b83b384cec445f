import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, migrateToLatest } from "../db/index";
import { createSession } from "../db/queries/sessions";
import { prng, seedDemo } from "../db/seed/index";
import { createEnrollmentToken } from "./enrollment";
import { SimulatedPhone } from "./simulator/phone";
import { encodeFrame, rawExchange, type RawFrame } from "./socket/raw-frames";
import { freePort, waitFor } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

/** The frames that crashed the process when they reached a refused socket (issue 9, item 1). */
const MALFORMED: [string, RawFrame, number][] = [
  ["invalid UTF-8 text", { opcode: 1, payload: Buffer.from([0xff, 0xfe, 0xfd]) }, 1007],
  ["an unmasked client frame", { opcode: 1, mask: false, payload: Buffer.from("{}") }, 1002],
  ["opcode 3", { opcode: 3, payload: Buffer.from("x") }, 1002],
  ["RSV1 without an extension", { opcode: 1, rsv: 4, payload: Buffer.from("{}") }, 1002],
  ["a frame over the size cap", { opcode: 1, claimLength: 2 * 1024 * 1024 }, 1009],
];

/**
 * The device service as its own process (server/device.ts) on a seeded SQLite file: a crash is an
 * exit, seen by /healthz failing, and never hidden by the test runner's handlers.
 */
describe("device socket: malformed frames never take the server down", () => {
  let proc: ChildProcess;
  let out = "";
  let url = "";
  let port = 0;
  let session = "";
  let phone: SimulatedPhone;
  let leoCredential = "";

  const alive = async () => {
    expect(proc.exitCode, `server exited:\n${out.slice(-2000)}`).toBeNull();
    const res = await fetch(`${url}/healthz`);
    expect(res.status).toBe(200);
  };

  /** A parent's LOCK reaches the enrolled, connected phone (the fleet still works). */
  const phoneStillObeys = async () => {
    const res = await fetch(`${url}/trpc/device.issueCommand`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${session}` },
      body: JSON.stringify({ serialNumber: MIA, type: "LOCK" }),
    });
    expect(res.status).toBe(200);
    const { commandId } = ((await res.json()) as { result: { data: { commandId: string } } }).result.data;
    await phone.waitForCommand("LOCK", 5_000, (c) => c.id === commandId);
  };

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "socket-fuzz-"));
    const file = path.join(dir, "portal.sqlite");
    const db = createDb({ url: file });
    await migrateToLatest(db);
    await seedDemo(db);
    const kid = (serial: string) =>
      db
        .selectFrom("devices")
        .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
        .select(["devices.profile_id", "kid_profiles.parent_id"])
        .where("serial_number", "=", serial)
        .executeTakeFirstOrThrow();
    const mia = await kid(MIA);
    const leo = await kid(LEO);
    const miaToken = (await createEnrollmentToken(db, { profileId: mia.profile_id, parentId: mia.parent_id })).token;
    const leoToken = (await createEnrollmentToken(db, { profileId: leo.profile_id, parentId: leo.parent_id })).token;
    session = await createSession(db, mia.parent_id, { idleMinutes: 60, absoluteDays: 1 });
    await db.destroy();

    port = await freePort();
    url = `http://127.0.0.1:${port}`;
    proc = spawn(process.execPath, ["--import", "tsx", "server/device.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: `file:${file}`,
        REDIS_URL: "",
        DEVICE_SERVICE_URL: "",
        HOST: "127.0.0.1",
        PORT: String(port),
        DATA_DIR: dir,
        SESSION_SECRET: "s".repeat(40),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout!.on("data", (d) => (out += d));
    proc.stderr!.on("data", (d) => (out += d));
    await waitFor(
      async () => {
        if (proc.exitCode !== null) throw new Error(`server exited: ${out}`);
        return fetch(`${url}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
      },
      30_000,
      100,
    );
    phone = new SimulatedPhone({ baseUrl: url, serialNumber: MIA, backoffBaseMs: 50, backoffMaxMs: 500 });
    await phone.enroll(miaToken);
    await phone.connect();
    const leoPhone = new SimulatedPhone({ baseUrl: url, serialNumber: LEO });
    leoCredential = await leoPhone.enroll(leoToken);
  }, 60_000);

  afterAll(async () => {
    await phone?.close();
    if (proc && proc.exitCode === null) {
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGTERM");
      await exited;
    }
  });

  it("refuses a bad or missing credential before the upgrade: HTTP 401, connection closed", async () => {
    for (const credential of [null, "nope.nope", `${leoCredential}x`]) {
      const r = await rawExchange(port, { credential, frames: [] });
      expect(r.status).toBe(401);
    }
    await alive();
  });

  it.each(MALFORMED)("%s on an unauthenticated socket: refused with 401, server up, phone still obeys", async (_name, frame) => {
    const r = await rawExchange(port, { credential: "nope.nope", frames: [encodeFrame(frame)], pipeline: true });
    expect(r.status).toBe(401);
    await alive();
    await phoneStillObeys();
  });

  it.each(MALFORMED)(
    "%s on an authenticated socket: closed with a protocol code, server up, phone still obeys",
    async (_name, frame, code) => {
      const r = await rawExchange(port, { credential: leoCredential, frames: [encodeFrame(frame)] });
      expect(r.status).toBe(101);
      expect(r.closeCodes).toContain(code);
      await alive();
      await phoneStillObeys();
    },
  );

  it("fuzz: a few hundred malformed and random frames from unauthenticated and authenticated clients (seeded)", async () => {
    const rand = prng(20_260_509);
    const int = (n: number) => Math.floor(rand() * n);
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(256)));
    const texts = [
      () =>
        Buffer.from(
          JSON.stringify({
            event: "child_status",
            id: `f${int(1e6)}`,
            data: {
              batteryPercentage: int(200) - 50,
              wifiConnected: rand() < 0.5,
              kidsAppStatus: "Healthy",
              appVersion: "1",
              protectionState: true,
            },
          }),
        ),
      () =>
        Buffer.from(
          JSON.stringify({
            event: ["usage", "location", "nope", "command_ack"][int(4)],
            id: "x".repeat(int(150)),
            data: { buckets: [{ packageName: "a.b", hour: "9999-12-31T23:00:00Z", minutes: int(100) }] },
          }),
        ),
      () => Buffer.from("{".repeat(int(2000))),
      () => bytes(int(300)),
    ];
    const randomFrame = (): RawFrame => {
      const pick = rand();
      if (pick < 0.35) return MALFORMED[int(MALFORMED.length)][1];
      if (pick < 0.6) return { opcode: 1, payload: texts[int(texts.length)]() };
      return {
        fin: rand() < 0.8,
        rsv: rand() < 0.2 ? int(8) : 0,
        opcode: [0, 1, 2, 8, 9, 10, int(16)][int(7)],
        mask: rand() < 0.9,
        payload: bytes(rand() < 0.1 ? 130 + int(70_000) : int(140)),
        ...(rand() < 0.05 ? { claimLength: [126, 65_535, 2 ** 32 + 5, 2 ** 40][int(4)] } : {}),
      };
    };
    let frames = 0;
    let connections = 0;
    const round = async () => {
      const n = 1 + int(5);
      const batch = Array.from({ length: n }, () => encodeFrame(randomFrame()));
      frames += n;
      connections++;
      const authed = rand() < 0.5;
      // Half of them even send garbage where the request should be, or a credential that is almost right.
      const credential = authed ? leoCredential : [null, "nope.nope", `${leoCredential.slice(0, -1)}A`, "x".repeat(300)][int(4)];
      await rawExchange(port, { credential, frames: batch, pipeline: !authed || rand() < 0.3, endAfterFrames: true });
    };
    while (frames < 400) {
      await Promise.all(Array.from({ length: 8 }, round));
      if (connections % 64 < 8) await alive();
    }
    expect(frames).toBeGreaterThanOrEqual(400);
    await alive();
    await phoneStillObeys();
  }, 20_000);
});
