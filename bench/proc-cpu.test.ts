import { spawn, type ChildProcess } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { cpuMeter, cpuSecondsOf, stealMeter } from "./proc-cpu";

/**
 * A process that starts a child which burns 0.6 s of CPU at once, kills it when told, and says when it is reaped. The
 * child counts its own CPU time, not the clock's: on a busy machine 0.6 s of the clock may hold far less CPU, and the
 * tests below wait for 0.5 s of it (a run with two vitest workers and a third process busy showed that wait never end).
 */
const PARENT = `
const { spawn } = require("node:child_process");
const c = spawn(process.execPath, ["-e", "const used = () => { const u = process.cpuUsage(); return u.user + u.system; }; while (used() < 600000) {} setInterval(() => {}, 1000)"], { stdio: "ignore" });
c.on("exit", () => process.send("reaped"));
process.on("message", () => c.kill("SIGKILL"));
process.send(c.pid);
setInterval(() => {}, 1000);
`;

const next = (p: ChildProcess) => new Promise<unknown>((resolve) => p.once("message", resolve));

// Reads /proc: Linux, as this machine and CI are (elsewhere the meter gives NaN, and these fail).
describe("the CPU meter", () => {
  let parent: ChildProcess | undefined;
  let child = 0;
  afterEach(() => {
    // The child first: killed with its parent it would live on, reparented, idling in its timer.
    try {
      if (child) process.kill(child, "SIGKILL");
    } catch {
      // already reaped
    }
    parent?.kill("SIGKILL");
    child = 0;
  });

  it("does not count, during its interval, the past of a child that ends in it (PostgreSQL's backends)", async () => {
    parent = spawn(process.execPath, ["-e", PARENT], { stdio: ["ignore", "ignore", "ignore", "ipc"] });
    child = Number(await next(parent));
    // The child's CPU is spent before the meter starts.
    while (cpuSecondsOf(child) < 0.5) await new Promise((r) => setTimeout(r, 50));
    const meter = cpuMeter({ parent: () => [parent!.pid!] }, 50);
    meter.start();
    const reaped = next(parent);
    parent.send("kill");
    await reaped;
    await new Promise((r) => setTimeout(r, 200));
    // Counting the reaped child's 0.6 s over these ~0.2 s would be 2–3 cores.
    expect(meter.stop().parent).toBeLessThan(0.5);
  });

  it("counts a process that starts and works within its interval", async () => {
    const meter = cpuMeter({ child: () => (child ? [child] : []) }, 50);
    const t0 = performance.now();
    meter.start();
    parent = spawn(process.execPath, ["-e", PARENT], { stdio: ["ignore", "ignore", "ignore", "ipc"] });
    child = Number(await next(parent));
    while (cpuSecondsOf(child) < 0.5) await new Promise((r) => setTimeout(r, 50));
    const cores = meter.stop().child;
    // CPU-seconds: its 0.5 s or more, seen from its first sample (it may have started up to 50 ms before it).
    expect(cores * ((performance.now() - t0) / 1000)).toBeGreaterThan(0.4);
  });
});

describe("stealMeter", () => {
  it("reads the hypervisor's steal from /proc/stat: a share of the machine's cores, never negative", async () => {
    const steal = stealMeter();
    await new Promise((r) => setTimeout(r, 300));
    const cores = steal();
    expect(Number.isFinite(cores)).toBe(true);
    expect(cores).toBeGreaterThanOrEqual(0);
    expect(cores).toBeLessThanOrEqual((await import("node:os")).cpus().length);
  });
});
