import { createServer, type Server } from "node:http";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { createLogger } from "../../core/log";
import { createLogFileSink } from "../../core/log-files.server";
import { startHarness, type Harness } from "../../server/harness.testing";
import { createGateway, DEVICE_SOCKET_PATH, type Gateway } from "./gateway";

// Anyone may knock on /device-socket with a bad credential, as fast as they like: the refusals must not fill the day's
// log file (core/log-files.server.ts caps it) and push the lines that matter out of it.
let h: Harness;
let gateway: Gateway;
let server: Server;
let url: string;
const dir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-refusals-"));
const CAP = 8 * 1024;
const sink = createLogFileSink({ dir, processName: "refusals", maxBytesPerFile: CAP });
const log = createLogger("info", { sink, stdout: () => {} });

beforeAll(async () => {
  h = await startHarness();
  gateway = createGateway({ ...h.runtime.deps, log });
  server = createServer();
  server.on("upgrade", (req, socket, head) => gateway.handleUpgrade(req, socket, head));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `ws://127.0.0.1:${(server.address() as { port: number }).port}${DEVICE_SOCKET_PATH}`;
}, 60_000);
afterAll(async () => {
  await gateway?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await h?.close();
  await sink.close();
});

/** One upgrade with a made-up credential; resolves with the HTTP status it was refused with. */
const knock = (i: number) =>
  new Promise<number>((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer dev_${i}_not-a-credential` } });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      ws.terminate();
    });
    ws.on("open", () => reject(new Error("a made-up credential was accepted")));
    ws.on("error", () => {});
  });

describe("refused device sockets", () => {
  it("500 refusals are logged once (with how many were held back), and the day's file keeps room for what matters", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 500; i += 50) statuses.push(...(await Promise.all(Array.from({ length: 50 }, (_, j) => knock(i + j)))));
    expect(new Set(statuses)).toEqual(new Set([401]));
    log("error", "the line that matters, after the storm");
    await sink.close();
    const text = readdirSync(dir)
      .map((f) => readFileSync(path.join(dir, f), "utf8"))
      .join("");
    const refused = text.split("\n").filter((l) => l.includes('"msg":"device socket refused"'));
    expect(refused).toHaveLength(1);
    expect(text).not.toContain("log file size cap reached");
    expect(text).toContain("the line that matters, after the storm");
  }, 60_000);
});
