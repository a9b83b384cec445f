import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findParentByEmail, createParent } from "../db/queries/parents";
import { seedDemo, DEMO_LOGIN } from "../db/seed/index";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createRemoteDevice } from "./remote";
import { freePort } from "../server/harness.testing";

// A separately deployed device service (its own process, server/device.ts) on a shared PostgreSQL
// database, called by a web tier through DEVICE_SERVICE_URL with the shared DEVICE_SERVICE_KEY.
const KEY = "k".repeat(40);

let t: TestDb;
let proc: ChildProcess;
let url: string;

beforeAll(async () => {
  t = await createTestDb("postgres");
  await seedDemo(t.db);
  const port = await freePort();
  let out = "";
  proc = spawn(process.execPath, ["--import", "tsx", "server/device.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      DEVICE_SERVICE_KEY: KEY,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "remote-ds-")),
      REDIS_URL: "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`device service exited: ${out}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`device service did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}, 60_000);

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    proc.kill("SIGTERM");
    await new Promise((r) => proc.once("exit", r));
  }
  await t?.destroy();
});

describe("device service over HTTP (DEVICE_SERVICE_URL)", () => {
  it("runs a parent's command in the other process: stored in the outbox, answered with its message", async () => {
    const parent = (await findParentByEmail(t.db, DEMO_LOGIN.email))!;
    const device = createRemoteDevice(`${url}/trpc`, KEY)({ id: parent.id, email: parent.email, role: parent.role });
    const res = await device.device.issueCommand({ serialNumber: "DEMO-MIA-0001", type: "LOCK" });
    expect(res.respones_msg).toMatch(/lock/i);
    const row = await t.db
      .selectFrom("device_commands")
      .select(["id", "type", "status"])
      .where("id", "=", res.commandId)
      .executeTakeFirstOrThrow();
    expect(row.type).toBe("LOCK");
    const recent = await device.device.commands({ serialNumber: "DEMO-MIA-0001" });
    expect(recent.map((c: { id: string }) => c.id)).toContain(res.commandId);
  });

  it("keeps authorisation in the device service: another family's phone is refused with the same error", async () => {
    const other = await createParent(t.db, { email: "other-remote@example.com", name: "Other", passwordHash: null });
    const device = createRemoteDevice(`${url}/trpc`, KEY)({ id: other.id, email: other.email, role: other.role });
    const err = await device.device.issueCommand({ serialNumber: "DEMO-MIA-0001", type: "LOCK" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCError);
    expect((err as TRPCError).code).toBe("NOT_FOUND");
  });

  it("refuses a caller without the shared key, and validates input remotely", async () => {
    const parent = (await findParentByEmail(t.db, DEMO_LOGIN.email))!;
    const wrongKey = createRemoteDevice(`${url}/trpc`, "x".repeat(40))({ id: parent.id, email: parent.email, role: parent.role });
    const err = await wrongKey.device.issueCommand({ serialNumber: "DEMO-MIA-0001", type: "LOCK" }).catch((e: unknown) => e);
    expect((err as TRPCError).code).toBe("UNAUTHORIZED");
    const device = createRemoteDevice(`${url}/trpc`, KEY)({ id: parent.id, email: parent.email, role: parent.role });
    const bad = await device.settings.setGlobalDailyLimit({ serialNumber: "DEMO-MIA-0001", minutes: 20 }).catch((e: unknown) => e);
    expect((bad as TRPCError).code).toBe("BAD_REQUEST");
    expect((bad as TRPCError).message).toContain("Please enter time multiple of 15.");
  });
});
