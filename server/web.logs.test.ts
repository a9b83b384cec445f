import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// What an unauthenticated visitor's mistakes write to the server's log: one JSON line each, never a stack (the real
// server in-process, needs `remix build` first; npm test does it).
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "kids-portal-logs-test-"));
process.env.NODE_ENV = "production";
process.env.PUBLIC_URL = "http://portal.test";
process.env.LOG_LEVEL = "info";
process.env.SIMULATE_DEMO_DEVICES = "false";
process.env.SEED_DEMO = "false";

const { startServer } = await import("./web");
let started: Awaited<ReturnType<typeof startServer>>;
let base: string;
const printed: string[] = [];
const spies: ReturnType<typeof vi.spyOn>[] = [];

beforeAll(async () => {
  started = await startServer({ port: 0, quiet: true });
  base = started.url;
  for (const m of ["log", "error", "warn", "info"] as const)
    spies.push(vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(" "))));
}, 60_000);
afterAll(async () => {
  for (const s of spies) s.mockRestore();
  await started?.close();
});

/** The lines the server printed while `run` ran (and a moment after, for what is logged once the answer is sent). */
async function linesOf(run: () => Promise<unknown>): Promise<string[]> {
  await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the one-a-second budget of the previous request
  const from = printed.length;
  await run();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return printed.slice(from).flatMap((p) => p.split("\n"));
}

describe("an unauthenticated visitor's mistakes are one JSON line each, no stack", () => {
  it.each([
    ["GET of a page that is not there", () => fetch(`${base}/no-such-page`), 404],
    ["GET of a data request that is not there", () => fetch(`${base}/no-such-page.data`), 404],
    [
      "POST to a page without an action",
      () =>
        fetch(`${base}/no-such-page`, {
          method: "POST",
          headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
          body: "a=b",
        }),
      405,
    ],
    ["GET of the webhook (POST only)", () => fetch(`${base}/webhooks/stripe`), null],
  ] as const)("%s", async (_name, request, status) => {
    let answered = 0;
    const lines = await linesOf(async () => {
      const res = await request();
      answered = res.status;
      await res.arrayBuffer();
    });
    if (status !== null) expect(answered).toBe(status);
    else expect(answered).toBeGreaterThanOrEqual(400);
    expect(lines, lines.join("\n")).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "info" });
    expect(lines[0]).not.toMatch(/\bat .+:\d+:\d+/);
    expect(line.stack).toBeUndefined();
  });
});
