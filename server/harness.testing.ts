import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import express from "express";
import type { Dialect } from "../db/index";
import { newId, nowIso } from "../core/ids.server";
import { createSession } from "../db/queries/sessions";
import { seedDemo } from "../db/seed/index";
import { createTestDb, type TestDb } from "../db/index.testing";
import { createLocalBus, createRedisBus, type Bus } from "../device-service/bus";
import type { PushTransport } from "../device-service/commands/push";
import type { ParentIdentity } from "../device-service/context";
import { createEnrollmentToken } from "../device-service/enrollment";
import { mountDeviceService, type UpgradeHandler } from "../device-service/http";
import type { KidsLoginEnv } from "../device-service/kids-login";
import { appRouter } from "../device-service/routers/_app";
import { createDeviceRuntime, type DeviceRuntime } from "../device-service/runtime";
import { SimulatedPhone, type PhoneOptions } from "../device-service/simulator/phone";
import { createCallerFactory } from "../device-service/trpc";
import { mountQueueBoard } from "../jobs/queue-board";
import { startJobSide } from "../jobs/lifecycle";
import { createRunner } from "../jobs/runner";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
export const TEST_API_KEY = "test-kids-app-key";
const createCaller = createCallerFactory(appRouter);

export interface Harness {
  url: string;
  tdb: TestDb;
  bus: Bus;
  runtime: DeviceRuntime;
  server: Server;
  logs: { level: string; msg: string; extra?: Record<string, unknown> }[];
  demo: ParentIdentity;
  other: ParentIdentity & { profileId: string; serialNumber: string };
  operator: ParentIdentity;
  caller(parent: ParentIdentity | null): ReturnType<typeof createCaller>;
  kid(serial: string): Promise<{ profileId: string; deviceId: string; name: string }>;
  /** A simulated phone for a seeded device, enrolled through a freshly minted token and connected. */
  phone(serial: string, opts?: Partial<PhoneOptions> & { connect?: boolean }): Promise<SimulatedPhone>;
  sessionFor(parentId: string): Promise<string>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  dialect?: Dialect;
  redisUrl?: string;
  /** Name of the Redis bus's connections (tests that kill them pick their own). */
  busName?: string;
  /** Called each time the Redis bus's subscription is (re)established. */
  onBusSubscribed?: () => void;
  /** Reuse a database (the two-server tests share one). */
  tdb?: TestDb;
  seed?: boolean;
  push?: PushTransport;
  pingIntervalMs?: number;
  /** The kids app's API key (default TEST_API_KEY). */
  kidsAppApiKey?: string;
  /** Store install retries (tests use a short base delay). */
  installRetry?: { baseMs: number; maxAttempts: number };
  /** CATALOG_ICON_BASE_URL as the composition root passes it (default: none, icons drawn locally). */
  catalogIconBase?: string;
  /** Limits of the kids app's parent login (defaults: the real ones) and the clock of their windows. */
  accounts?: Partial<KidsLoginEnv> & { now?: () => Date };
}

/** A device service on an ephemeral port over a fresh test database with the demo family and one other family. */
export async function startHarness(o: HarnessOptions = {}): Promise<Harness> {
  const tdb = o.tdb ?? (await createTestDb(o.dialect ?? "sqlite"));
  const logs: Harness["logs"] = [];
  const log = (level: "debug" | "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => {
    logs.push({ level, msg, extra });
  };
  if (o.seed !== false) await seedDemo(tdb.db);
  const bus = o.redisUrl
    ? createRedisBus(o.redisUrl, (m) => log("error", m), { name: o.busName, onSubscribed: o.onBusSubscribed })
    : createLocalBus();
  const jobs = createRunner({ redisUrl: o.redisUrl, prefix: o.redisUrl ? `test-${randomBytes(4).toString("hex")}` : undefined, log });
  const runtime = await createDeviceRuntime({
    db: tdb.db,
    bus,
    log,
    redisUrl: o.redisUrl,
    jobs,
    // The job side as every process starts it (server/services.ts): workers, recovery, housekeeping.
    startJobs: (deps) => startJobSide(deps, jobs),
    push: o.push,
    pingIntervalMs: o.pingIntervalMs,
    installRetry: o.installRetry,
    catalogIconBase: o.catalogIconBase,
  });
  const app = express();
  mountQueueBoard(app, { db: tdb.db, jobs, sessionPolicy: { idleMinutes: 60, absoluteDays: 1 } });
  const upgrades = new Map<string, UpgradeHandler>();
  const { now, ...limits } = o.accounts ?? {};
  const accountsEnv: KidsLoginEnv = {
    RATE_LIMIT_IP_PER_MINUTE: 10,
    RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 100,
    SESSION_SECRET: "harness-secret-harness-secret-harness-secret",
    SMTP_URL: "",
    MAIL_FROM: "Kids Portal <no-reply@kids-portal.local>",
    NODE_ENV: "test",
    DEV_MAILBOX: false,
    ...limits,
  };
  mountDeviceService(app, upgrades, {
    runtime,
    sessionPolicy: { idleMinutes: 60, absoluteDays: 1 },
    kidsAppApiKey: o.kidsAppApiKey ?? TEST_API_KEY,
    accounts: { env: accountsEnv, now },
  });
  const server = createServer(app);
  server.on("upgrade", (req, socket, head) => {
    const h = upgrades.get(new URL(req.url ?? "/", "http://x").pathname);
    if (h) h(req, socket, head);
    else socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  const url = `http://127.0.0.1:${port}`;
  runtime.deps.publicUrl = url;

  const db = tdb.db;
  const parents = await db.selectFrom("parents").select(["id", "email", "role"]).execute();
  const demoRow = parents.find((p) => p.email === "demo@kids-portal.test");
  const opRow = parents.find((p) => p.role === "operator");

  // Another family: its own parent, kid and phone.
  let other = (await db
    .selectFrom("parents")
    .select(["id", "email", "role"])
    .where("email", "=", "other@kids-portal.test")
    .executeTakeFirst()) as ParentIdentity | undefined;
  let otherKid = { profileId: "", serialNumber: "OTHER-KID-0003" };
  if (!other && o.seed !== false) {
    const ts = nowIso();
    other = { id: newId(), email: "other@kids-portal.test", role: "parent" };
    await db
      .insertInto("parents")
      .values({
        id: other.id,
        email: other.email,
        name: "Other Parent",
        password_hash: null,
        role: "parent",
        email_verified_at: ts,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const profileId = newId();
    await db
      .insertInto("kid_profiles")
      .values({
        id: profileId,
        parent_id: other.id,
        name: "Zoe",
        birth_month: 1,
        birth_year: 2015,
        picture_mime: null,
        picture: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    await db
      .insertInto("devices")
      .values({
        id: newId(),
        profile_id: profileId,
        serial_number: otherKid.serialNumber,
        app_version: null,
        brand: null,
        model: null,
        hardware: null,
        baseband_version: null,
        manufacturer: null,
        android_version: null,
        language_code: null,
        imei: null,
        wifi_mac: null,
        network_operator: null,
        phone_number: null,
        total_ram: null,
        total_storage: null,
        last_activation_at: null,
        credential_hash: null,
        fcm_token: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    otherKid = { profileId, serialNumber: otherKid.serialNumber };
  } else if (other) {
    const k = await db.selectFrom("kid_profiles").select("id").where("parent_id", "=", other.id).executeTakeFirstOrThrow();
    otherKid = { profileId: k.id, serialNumber: "OTHER-KID-0003" };
  }

  const phones: SimulatedPhone[] = [];
  const h: Harness = {
    url,
    tdb,
    bus,
    runtime,
    server,
    logs,
    demo: demoRow as ParentIdentity,
    operator: opRow as ParentIdentity,
    other: { ...(other as ParentIdentity), ...otherKid },
    caller: (parent) => createCaller({ ...runtime.deps, parent }),
    async kid(serial) {
      const r = await db
        .selectFrom("devices")
        .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
        .select(["devices.id as deviceId", "kid_profiles.id as profileId", "kid_profiles.name"])
        .where("devices.serial_number", "=", serial)
        .executeTakeFirstOrThrow();
      return r;
    },
    async phone(serial, opts = {}) {
      const dev = await db
        .selectFrom("devices")
        .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
        .select(["devices.profile_id", "kid_profiles.parent_id"])
        .where("devices.serial_number", "=", serial)
        .executeTakeFirstOrThrow();
      // One simulated phone per serial at a time: the previous one is switched off.
      for (const old of phones.filter((p) => p.serialNumber === serial)) await old.close();
      const phone = new SimulatedPhone({ baseUrl: url, serialNumber: serial, backoffBaseMs: 50, backoffMaxMs: 500, ...opts });
      const { token } = await createEnrollmentToken(db, { profileId: dev.profile_id, parentId: dev.parent_id });
      await phone.enroll(token);
      if (opts.connect !== false) await phone.connect();
      phones.push(phone);
      return phone;
    },
    sessionFor: (parentId) => createSession(db, parentId, { idleMinutes: 60, absoluteDays: 1 }),
    async close() {
      await Promise.all(phones.map((p) => p.close()));
      await runtime.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      });
      await bus.close();
      if (!o.tdb) await tdb.destroy();
    },
  };
  return h;
}

export async function waitFor<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000, stepMs = 25): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export { freePort } from "../core/ports.server";
