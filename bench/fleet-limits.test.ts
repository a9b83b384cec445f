import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { planFleet, type Limits } from "./fleet-limits";
import { missingBuild, phase, PhaseTimeout, parseDeadlines } from "./phases";

const HERE: Limits = {
  nofileSoft: 20_000,
  nofileHard: 20_000,
  portRange: [32768, 60999],
  filesFree: 2_000_000,
  memFreeBytes: 20 * 2 ** 30,
};

/** Issue 22 item 2: the fleet bench checks every limit before it starts. */
describe("planFleet", () => {
  it.each([
    [
      "50,000 phones over 4 processes fit a 20,000-file hard limit",
      { phones: 50_000, serverProcesses: 4, clientProcesses: null },
      HERE,
      [],
      4,
      50,
    ],
    [
      "2,000 phones need one client and two source addresses (1,000 phones an address)",
      { phones: 2_000, serverProcesses: 2, clientProcesses: null },
      HERE,
      [],
      1,
      2,
    ],
    [
      "50,000 phones over 2 processes: 25,256 files each, the old hang",
      { phones: 50_000, serverProcesses: 2, clientProcesses: null },
      HERE,
      [/each device-service process would hold 25256 files .* use --processes 3 or more/],
      4,
      50,
    ],
    [
      "too few client processes",
      { phones: 50_000, serverProcesses: 4, clientProcesses: 2 },
      HERE,
      [/each client process would hold 25256 files .* use --client-processes 4/],
      2,
      50,
    ],
    [
      "a tiny port range",
      { phones: 2_000, serverProcesses: 2, clientProcesses: null },
      { ...HERE, portRange: [60000, 60001] as [number, number] },
      [/ephemeral ports: the local port range 60000–60001 is too small/],
      1,
      1,
    ],
    [
      "few free file handles",
      { phones: 50_000, serverProcesses: 4, clientProcesses: null },
      { ...HERE, filesFree: 10_000 },
      [/system file handles: the run needs about \d+, only 10000 are free/],
      4,
      50,
    ],
    [
      "little memory",
      { phones: 50_000, serverProcesses: 4, clientProcesses: null },
      { ...HERE, memFreeBytes: 2 ** 30 },
      [/memory: the run needs about \d+ MiB, only 1024 MiB are free/],
      4,
      50,
    ],
  ])("%s", (_name, req, limits, problems, clients, addresses) => {
    const r = planFleet(req, limits);
    expect(r.problems).toHaveLength(problems.length);
    problems.forEach((p, i) => expect(r.problems[i]).toMatch(p));
    expect(r.plan.clientProcesses).toBe(clients);
    expect(r.plan.sourceAddresses).toHaveLength(addresses);
    expect(new Set(r.plan.sourceAddresses).size).toBe(addresses);
    expect(r.plan.sourceAddresses.every((a) => /^127\.0\.0\.\d+$/.test(a) && a !== "127.0.0.1")).toBe(true);
  });
});

describe("phase deadlines", () => {
  it("a phase past its deadline fails with its name", async () => {
    const never = phase("connect", 20, () => new Promise<void>(() => {}));
    await expect(never).rejects.toBeInstanceOf(PhaseTimeout);
    await expect(never).rejects.toThrow('phase "connect" did not finish within 20 ms');
    await expect(phase("rtt", 1000, async () => 7)).resolves.toBe(7);
  });

  it("--deadline takes <phase>=<seconds> for a known phase", () => {
    expect(parseDeadlines(["connect=1.5", "rtt=2"], ["connect", "rtt"])).toEqual({ connect: 1500, rtt: 2000 });
    expect(() => parseDeadlines(["conect=1"], ["connect"])).toThrow(/phase among: connect/);
  });
});

function run(args: string[], hardLimit?: number): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const node = [process.execPath, "--import", "tsx", "bench/device-fleet.ts", ...args].map((a) => `'${a}'`).join(" ");
    const proc = spawn("sh", ["-c", hardLimit ? `ulimit -n ${hardLimit} && exec ${node}` : `exec ${node}`], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", (d) => (stderr += d));
    proc.once("error", reject);
    proc.once("exit", (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}

describe("bench/device-fleet.ts against real limits", () => {
  it("refuses at once, with the limit and what to do, when the open-file limit is short", async () => {
    const r = await run(["--phones", "2000", "--processes", "1"], 600);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot run with these sizes on this machine/);
    expect(r.stderr).toMatch(
      /each device-service process would hold 2256 files .* hard limit of 600 per process; use --processes 6 or more/,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe("");
  }, 30_000);

  it("a phase past its deadline ends the run with the phase's name and stops every child process", async () => {
    const r = await run(["--phones", "50", "--processes", "1", "--deadline", "start-bare=0.001", "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/phase "start-bare" did not finish within 1 ms; stopped 1 child process \((\d+)\)/);
    const pid = Number(/\((\d+)\)/.exec(r.stderr)![1]);
    expect(() => process.kill(pid, 0)).toThrow();
    expect(r.stdout).toBe("");
  }, 60_000);
});

describe("benches that start the web tier", () => {
  it("say plainly that the build is missing, and how to make it", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "nobuild-"));
    expect(missingBuild(dir)).toMatch(/run `npx remix build` first/);
    mkdirSync(path.join(dir, "build"));
    writeFileSync(path.join(dir, "build", "index.js"), "");
    expect(missingBuild(dir)).toBeNull();
  });
});
