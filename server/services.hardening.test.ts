import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { parseEnv } from "../core/env.server";
import { serverLogDir } from "../core/log-files.server";
import { TEST_REDIS_URL } from "./harness.testing";
import { createServices, type Services } from "./services";

// What a process leaves on disk and in its logs, through the one composition root every process uses.

/** A TCP proxy to Redis: "down" drops every connection and refuses new ones (a Redis restart as a process sees it). */
function redisProxy() {
  const target = new URL(TEST_REDIS_URL);
  const open = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  let isUp = false;
  return {
    get url() {
      const u = new URL(TEST_REDIS_URL);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    async up(): Promise<void> {
      if (isUp) return;
      isUp = true;
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
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
    async down(): Promise<void> {
      if (!isUp) return;
      isUp = false;
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every line of this process's log files so far. */
function logLines(dataDir: string): string[] {
  const dir = serverLogDir(dataDir);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".log"))
    .flatMap((f) => readFileSync(path.join(dir, f), "utf8").split("\n"))
    .filter(Boolean);
}

/** Waits until `count` has not changed for half a second (at most 10 s). */
async function settled(count: () => number): Promise<void> {
  let last = count();
  for (let waited = 0; waited < 10_000; waited += 500) {
    await sleep(500);
    const now = count();
    if (now === last) return;
    last = now;
  }
}

const consoleSpies: ReturnType<typeof vi.spyOn>[] = [];
afterEach(() => {
  for (const s of consoleSpies.splice(0)) s.mockRestore();
});

describe("a Redis outage is logged once per 10 s per process", () => {
  let services: Services;
  let dataDir: string;
  const proxy = redisProxy();

  beforeAll(async () => {
    await proxy.up();
    dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "kids-portal-redis-outage-")), "data");
    const env = parseEnv({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      SESSION_SECRET: "o".repeat(40),
      REDIS_URL: proxy.url,
      LOG_LEVEL: "info",
    });
    services = await createServices({ kind: "web", env, queuePrefix: `test-outage-${randomBytes(4).toString("hex")}` });
  }, 60_000);
  afterAll(async () => {
    await proxy.up();
    await services?.close();
    await proxy.down();
  }, 30_000);

  it("a 5 s outage writes one line (not one per connection and retry), and the process carries on", async () => {
    // What goes to stdout and stderr meanwhile, besides the file (ioredis and BullMQ print there on their own too).
    const printed: string[] = [];
    for (const m of ["log", "error", "warn", "info"] as const)
      consoleSpies.push(vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" "))));
    // The file is written asynchronously: what start-up logged is counted once it has settled.
    await settled(() => logLines(dataDir).length);
    const before = logLines(dataDir).length;
    await proxy.down();
    await sleep(5_000);
    await proxy.up();
    await sleep(2_000); // reconnected (ioredis retries at most every 2 s)
    await settled(() => logLines(dataDir).length);
    const during = logLines(dataDir).slice(before);
    expect(during.length, during.join("\n")).toBeGreaterThanOrEqual(1);
    expect(during.length, during.join("\n")).toBeLessThanOrEqual(2);
    expect(
      // The first line of the outage, whoever saw it first: the bus, presence or BullMQ (named, or by the address).
      during.some((l) => /redis|bullmq/i.test(l) || l.includes(`:${new URL(proxy.url).port}`)),
      during.join("\n"),
    ).toBe(true);
    expect(printed.length, printed.join("\n")).toBeLessThanOrEqual(2);
    // The process works on: the bus carries messages again.
    const heard = new Promise<void>((resolve) => {
      const off = services.bus.subscribe((m) => {
        if (m.type === "device.unenrolled" && m.deviceId === "outage-probe") {
          off();
          resolve();
        }
      });
    });
    await services.bus.publish({ type: "device.unenrolled", deviceId: "outage-probe" });
    await heard;
  }, 30_000);
});

describe("DATA_DIR, the database and the logs are the service user's only", () => {
  it("0700 for the folders, 0600 for the database (with its -wal and -shm) and the log file, also when they existed before", async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "kids-portal-modes-")), "data");
    // As an older version left them: the umask's modes.
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    closeSync(openSync(path.join(dataDir, "portal.sqlite"), "w", 0o644));
    chmodSync(path.join(dataDir, "portal.sqlite"), 0o644);
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, SESSION_SECRET: "m".repeat(40), REDIS_URL: "" });
    const services = await createServices({ kind: "web", env });
    try {
      services.log("info", "a line, so the log file has been written");
      // The file is opened by its stream, a moment after the sink is made.
      for (let i = 0; i < 50 && !readdirSync(serverLogDir(dataDir)).length; i++) await sleep(100);
      await sleep(100);
      const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
      expect(mode(dataDir)).toBe("700");
      expect(mode(serverLogDir(dataDir))).toBe("700");
      const logFiles = readdirSync(serverLogDir(dataDir));
      expect(logFiles.length).toBeGreaterThan(0);
      for (const f of logFiles) expect(mode(path.join(serverLogDir(dataDir), f)), f).toBe("600");
      const dbFiles = readdirSync(dataDir).filter((f) => f.startsWith("portal.sqlite"));
      expect(dbFiles.sort()).toEqual(["portal.sqlite", "portal.sqlite-shm", "portal.sqlite-wal"]);
      for (const f of dbFiles) expect(mode(path.join(dataDir, f)), f).toBe("600");
    } finally {
      await services.close();
    }
  }, 60_000);
});
