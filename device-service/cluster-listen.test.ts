import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "../server/harness.testing";

type Event = { listened?: number; at?: number; respawn?: boolean; ready?: number[] };

/** The primary's events, as they come (device-service/cluster-listen.testing.ts). */
function startCluster(port: number, delays: number[]) {
  const proc = spawn(process.execPath, ["--import", "tsx", "device-service/cluster-listen.testing.ts", String(port), delays.join(",")], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const events: Event[] = [];
  const waiters: (() => void)[] = [];
  let buf = "";
  proc.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      events.push(JSON.parse(buf.slice(0, i)) as Event);
      buf = buf.slice(i + 1);
      waiters.splice(0).forEach((w) => w());
    }
  });
  const until = async (pred: (e: Event[]) => boolean) => {
    while (!pred(events)) await new Promise<void>((r) => waiters.push(r));
  };
  return { proc, events, until };
}

let running: ChildProcess | null = null;
afterEach(() => {
  running?.kill("SIGKILL");
  running = null;
});

/**
 * Issue 22 item 2 (the way back after kill -9 of all): with round robin the primary deals connections only to the
 * workers already listening, so a cluster's first workers listen together — the first to be ready does not take
 * every waiting phone alone. A replacement for one dead worker does not wait for anyone.
 */
describe("a device cluster's first workers listen together", () => {
  it("a worker that starts 1.5 s later holds the others back; a replacement listens at once", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const c = startCluster(port, [0, 1_500, 0]);
    running = c.proc;
    await c.until((e) => e.some((x) => x.ready));
    const first = c.events.filter((e) => e.listened && !e.respawn);
    expect(first).toHaveLength(3);
    const times = first.map((e) => e.at!);
    // Without the barrier the two quick workers listened ~1.5 s before the slow one.
    expect(Math.max(...times) - Math.min(...times)).toBeLessThan(500);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe("ok");

    // kill -9 of one: its replacement (no delay) listens while the other two go on.
    const t0 = Date.now();
    c.proc.stdin!.write(`kill ${first[0].listened}\n`);
    await c.until((e) => e.some((x) => x.respawn));
    expect(c.events.find((e) => e.respawn)!.at! - t0).toBeLessThan(10_000);
  });
});
