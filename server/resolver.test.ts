import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, migrateToLatest, type DB } from "../db/index";
import { ensureFilterIdsForAllKids, updateWebFilterSettings } from "../db/queries/web-filter/settings";
import { seedIfEmpty } from "../db/seed/index";
import { createRedisBus, type Bus } from "../device-service/bus";
import { a, startFakeUpstream } from "../web-filter/resolver/upstream/fake-upstream.testing";
import { kdig } from "../web-filter/servers/kdig.testing";
import { TEST_REDIS_URL } from "./harness.testing";

/**
 * `npm run resolver` as a process of its own: DoT on a free port over the database the web processes share, and a
 * kid's change published on the bus (Redis) by another process reaches it.
 */
const DOMAIN = "dns.resolver.test";
let child: ChildProcess;
let db: DB;
let bus: Bus;
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let port = 0;
let kid: { id: string; filterId: string };
let exited: Promise<number | null>;
let dataDir: string;
let output = "";

function spawnResolver(env: Record<string, string>): ChildProcess {
  const { DATABASE_URL: _db, ...inherited } = process.env;
  return spawn(process.execPath, ["--import", "tsx", "server/resolver.ts"], {
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      NODE_ENV: "development",
      LOG_LEVEL: "info",
      DNS_DOT_PORT: "0",
      DNS_FILTER_DOMAIN: DOMAIN,
      DNS_UPSTREAM: upstream.address,
      DNS_UPSTREAM_TIMEOUT_MS: "500",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

beforeAll(async () => {
  upstream = await startFakeUpstream({
    "A example.com": { answers: [a("example.com", "93.184.216.34", 300)] },
    "A facebook.com": { answers: [a("facebook.com", "157.240.1.35", 300)] },
  });
  dataDir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-resolver-test-"));
  db = createDb({ url: path.join(dataDir, "portal.sqlite") });
  await migrateToLatest(db);
  await seedIfEmpty(db);
  await ensureFilterIdsForAllKids(db);
  const row = await db.selectFrom("web_filter_settings").select(["profile_id", "filter_id"]).executeTakeFirstOrThrow();
  kid = { id: row.profile_id, filterId: row.filter_id };
  bus = createRedisBus(TEST_REDIS_URL, () => {}, { name: "resolver-test" });
  child = spawnResolver({ REDIS_URL: TEST_REDIS_URL });
  exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const m = /"resolver started","dnsOverTlsPort":(\d+)/.exec(output);
      if (m) resolve(Number(m[1]));
    });
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`the resolver exited (${code}): ${output}`)));
  });
}, 60_000);
afterAll(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  await bus?.close();
  await db?.destroy();
  await upstream?.close();
});

const dot = (id: string, name: string) => kdig(["@127.0.0.1", "-p", String(port), "+tls", `+tls-sni=${id}.${DOMAIN}`, name]);

describe("npm run resolver", () => {
  it("serves DoT for the kids' filter ids and refuses an unknown one", async () => {
    const ok = await dot(kid.filterId, "example.com");
    expect(ok.status, ok.output).toBe("NOERROR");
    expect(ok.answers[0]).toMatch(/^example\.com\. \d+ A 93\.184\.216\.34$/);
    expect((await dot("unknownfilterid00000", "example.com")).status).toBe("REFUSED");
  });

  it("hears a kid's change published by another process, and stops on SIGTERM", async () => {
    expect((await dot(kid.filterId, "facebook.com")).answers[0]).toMatch(/ A 157\.240\.1\.35$/);
    await updateWebFilterSettings(db, kid.id, { blockedCategories: [{ categoryId: "social-networks", scheduleId: null }] });
    await bus.publish({ type: "web-filter.kid", profileId: kid.id });
    await expect.poll(async () => (await dot(kid.filterId, "www.facebook.com")).answers[0], { timeout: 10_000 }).toMatch(/ A 0\.0\.0\.0$/);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain('"resolver shutting down","signal":"SIGTERM"');
  });

  it("is composed as every process is: its log file beside the others', named by its kind", () => {
    const files = readdirSync(path.join(dataDir, "logs")).filter((f) => new RegExp(`-resolver-${child.pid}\\.log$`).test(f));
    expect(files).toHaveLength(1);
    const log = readFileSync(path.join(dataDir, "logs", files[0]), "utf8");
    expect(log).toContain('"resolver started"');
    expect(log).toContain('"resolver shutting down"');
  });

  it("without REDIS_URL refuses to start and says why", async () => {
    const alone = spawnResolver({ REDIS_URL: "" });
    let err = "";
    alone.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => alone.once("exit", resolve));
    expect(code).toBe(1);
    expect(err).toContain("npm run resolver needs REDIS_URL");
  });
});
