import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { TRPCError } from "@trpc/server";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type DB } from "../db/index";
import { createParent } from "../db/queries/parents";
import { createSession } from "../db/queries/sessions";
import { createTestDb, TEST_DATABASE_URL, type TestDb } from "../db/index.testing";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../db/unavailable";
import { createLocalBus } from "../device-service/bus";
import { createDeviceCaller } from "../device-service/caller";

// The real server (`tsx server/web.ts`, needs `remix build`) on PostgreSQL, reached through a TCP proxy: "down" drops
// every connection and refuses new ones (a restart or failover as the server sees it), "up" lets them through.
const KIDS_APP_KEY = randomBytes(24).toString("hex");
const LOST = '"msg":"database connection lost"';

function pgProxy() {
  const target = new URL(TEST_DATABASE_URL);
  const open = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  return {
    get port() {
      return port;
    },
    async up(): Promise<void> {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          open.add(s);
          s.on("error", () => {});
          s.on("close", () => {
            open.delete(s);
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
      port = (server.address() as net.AddressInfo).port;
    },
    /** Drops every connection and stops listening; returns how many server connections were dropped. */
    async down(): Promise<number> {
      const dropped = open.size / 2;
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      return dropped;
    },
  };
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

let t: TestDb;
let proxy: ReturnType<typeof pgProxy>;
let child: ChildProcess;
let out = "";
let base: string;
let bearer: string;
const outputWaiters = new Set<() => void>();
const count = (s: string) => out.split(s).length - 1;

/** Resolves once the server's output holds `n` occurrences of `s`; rejects if the server exits first. */
function waitForOutput(s: string, n = 1): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (count(s) >= n) {
        outputWaiters.delete(check);
        child.off("exit", onExit);
        resolve();
      }
    };
    const onExit = (code: number | null) => {
      outputWaiters.delete(check);
      reject(new Error(`the server exited (${code}) while waiting for ${s}:\n${out}`));
    };
    outputWaiters.add(check);
    child.once("exit", onExit);
    check();
  });
}

async function terminateBackends(): Promise<number> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  admin.on("error", () => {});
  await admin.connect();
  try {
    const r = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [
      new URL(t.url).pathname.slice(1),
    ]);
    return r.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

const kidsAppLogin = () =>
  fetch(`${base}/device-api/kids/parent/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-api-key": KIDS_APP_KEY },
    body: JSON.stringify({ email: "nobody@example.com", password: "wrong-password" }),
  });
const withToken = (p: string, init: RequestInit = {}) =>
  fetch(`${base}${p}`, { ...init, redirect: "manual", headers: { Authorization: `Bearer ${bearer}`, ...init.headers } });

beforeAll(async () => {
  t = await createTestDb("postgres");
  const parent = await createParent(t.db, { email: "outage@example.com", name: "Outage", passwordHash: null });
  bearer = await createSession(t.db, parent.id, { idleMinutes: 60, absoluteDays: 1 });
  await t.db.destroy(); // from here on only the server is connected to this database (t.destroy() drops it)
  proxy = pgProxy();
  await proxy.up();
  const url = new URL(t.url);
  url.port = String(proxy.port);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ["--import", "tsx", "server/web.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "kids-portal-outage-")),
      PORT: String(port),
      PUBLIC_URL: base,
      NODE_ENV: "production",
      SIMULATE_DEMO_DEVICES: "false",
      SEED_DEMO: "false",
      REDIS_URL: "",
      KIDS_APP_API_KEY: KIDS_APP_KEY,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of [...outputWaiters]) w();
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  await waitForOutput("is running at");
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  await proxy?.down().catch(() => {});
  await t?.destroy();
});

describe("the server on PostgreSQL", () => {
  it("stays up when every backend of its database is terminated, and answers again", async () => {
    expect((await kidsAppLogin()).status).toBe(401); // a query ran: the pool holds an idle connection
    const lostBefore = count(LOST);
    const terminated = await terminateBackends();
    expect(terminated).toBeGreaterThan(0);
    await waitForOutput(LOST, lostBefore + terminated); // each lost connection logged once; the process lives on
    expect(child.exitCode).toBeNull();
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });
    expect((await kidsAppLogin()).status).toBe(401);
    expect((await withToken("/account")).status).toBe(200);
  });

  it("answers 503 with a clear message while the database is unreachable, and recovers by itself", async () => {
    expect((await withToken("/account")).status).toBe(200);
    const lostBefore = count(LOST);
    const dropped = await proxy.down();
    await waitForOutput(LOST, lostBefore + dropped);

    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, database: "unreachable" });

    // Pages (Remix, and the dashboard's page cache in front of it): a page with the message, never a stack.
    for (const page of ["/account", "/kids-device"]) {
      const res = await withToken(page, { headers: { Accept: "text/html" } });
      expect(res.status, page).toBe(503);
      expect(res.headers.get("retry-after"), page).toBe("30");
      expect(res.headers.get("content-type"), page).toContain("text/html");
      const html = await res.text();
      expect(html, page).toContain(DATABASE_UNAVAILABLE_MESSAGE);
      expect(html, page).not.toMatch(/ECONNREFUSED|at .+\.(js|ts):\d+/);
    }
    // A client-side navigation's data request says so too (the ErrorBoundary then shows the message).
    const data = await withToken("/account.data");
    expect(data.status).toBe(503);
    expect(await data.text()).toContain(DATABASE_UNAVAILABLE_MESSAGE);
    // A form post (an action) gets the same page.
    const post = await withToken("/account", {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=x",
    });
    expect(post.status).toBe(503);
    expect(await post.text()).toContain(DATABASE_UNAVAILABLE_MESSAGE);

    // APIs: JSON.
    const trpc = await withToken("/trpc/health");
    expect(trpc.status).toBe(503);
    expect(JSON.stringify(await trpc.json())).toContain(DATABASE_UNAVAILABLE_MESSAGE);
    const api = await kidsAppLogin();
    expect(api.status).toBe(503);
    expect(await api.json()).toEqual({ respones_msg: DATABASE_UNAVAILABLE_MESSAGE });
    const events = await withToken("/events", { headers: { Accept: "text/event-stream" } });
    expect(events.status).toBe(503);
    expect(await events.json()).toEqual({ respones_msg: DATABASE_UNAVAILABLE_MESSAGE });

    expect(child.exitCode).toBeNull();
    await proxy.up();

    const healthy = await fetch(`${base}/healthz`);
    expect(healthy.status).toBe(200);
    expect((await withToken("/account")).status).toBe(200);
    expect((await kidsAppLogin()).status).toBe(401);
  });
});

describe("the device service during an outage", () => {
  it("answers SERVICE_UNAVAILABLE with the plain message, not the driver's error", async () => {
    const url = new URL(t.url);
    url.port = "1"; // nothing listens there
    const db: DB = createDb({ url: url.toString(), onError: () => {} });
    try {
      const device = createDeviceCaller({
        db,
        bus: createLocalBus(),
        log: () => {},
        parent: { id: "p", email: "p@example.com", role: "parent" },
      });
      const err = await device.kids.setSleepMode({ profileId: "k", sleepMode: true }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TRPCError);
      expect(err).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE });
    } finally {
      await db.destroy();
    }
  });
});
