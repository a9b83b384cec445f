import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { BENCHES } from "./benches";
import { missedTargets, shapeProblems, type BenchResult } from "./report";

/**
 * Issue 22 item 6: every bench ends with one JSON line and `npm run bench:all -- --json` prints one per bench.
 * The smoke sizes only check that every bench still runs end to end (needs `npx remix build` first, like the
 * server tests; PostgreSQL and Redis for the fleet).
 */
describe("npm run bench:all -- --smoke --json", () => {
  it("prints one well-formed result line per bench and nothing else", async () => {
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const proc = spawn("npm", ["run", "-s", "bench:all", "--", "--smoke", "--json"], { stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      proc.stdout.on("data", (d) => (stdout += d));
      proc.stderr.on("data", (d) => (stderr += d));
      proc.once("error", reject);
      proc.once("exit", (code) => resolve({ code, stdout, stderr }));
    });
    // 0: every target met, 3: ran and missed one (tiny sizes on a shared machine); never 1 (could not run).
    expect([0, 3], r.stderr).toContain(r.code);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(BENCHES.length);
    const results = lines.map((l) => JSON.parse(l) as BenchResult);
    expect(results.map((x) => x.bench)).toEqual(BENCHES.map((b) => b.name));
    for (const x of results) {
      expect(shapeProblems(x)).toEqual([]);
      expect(Object.keys(x.targets).length).toBeGreaterThan(0);
      expect(x.met).toBe(missedTargets(x).length === 0);
      expect(Object.keys(x.ratios).length).toBeGreaterThan(0);
    }
    const fleet = results.find((x) => x.bench === "device-fleet")!;
    expect(fleet.figures).toMatchObject({ phones: 60, processes: 2, commandsLost: 0 });
    expect(Object.keys(fleet.targets).sort()).toEqual([
      "commandsExecutedTwice",
      "commandsLost",
      "killAllBackMs",
      "killOneBackMs",
      "memoryPerPhone",
      "rttP99Ms",
    ]);
    const ingest = results.find((x) => x.bench === "ingest")!;
    expect(ingest.figures).toMatchObject({ "sqlite.rowsMissing": 0, "postgres.rowsMissing": 0 });
    expect(Object.keys(ingest.baselines).sort()).toEqual([
      "postgres.rawArrivalRowsPerS",
      "postgres.rawRowsPerS",
      "sqlite.rawArrivalRowsPerS",
      "sqlite.rawRowsPerS",
    ]);
    // The target is measured against the phone-by-phone baseline (the harder one); arrival order is shown beside it.
    expect(Object.keys(ingest.targets).sort()).toEqual([
      "postgres.groupVsRaw",
      "postgres.rowsMissing",
      "sqlite.groupVsRaw",
      "sqlite.rowsMissing",
    ]);
    const mixed = results.find((x) => x.bench === "mixed-load")!;
    // Figures only (a saturated machine may answer a page late or 503: that is a measurement, not a broken bench).
    expect(Object.keys(mixed.figures)).toEqual(expect.arrayContaining(["loaded.pageP95Ms", "loaded.commandP99Ms", "failures"]));
    expect(Object.keys(mixed.baselines).sort()).toEqual([
      "bare.commandP50Ms",
      "bare.commandP99Ms",
      "loadedBare.commandP50Ms",
      "loadedBare.commandP99Ms",
      "quiet.commandP99Ms",
      "quiet.pageP95Ms",
    ]);
    // The bare chain ran twice: without the fleet, and with it still uploading (the loaded command's baseline).
    expect(mixed.baselines["bare.commandP99Ms"]).toBeGreaterThan(0);
    expect(mixed.baselines["loadedBare.commandP99Ms"]).toBeGreaterThan(0);
    expect(mixed.ratios.commandP99VsLoadedBare).toBeGreaterThan(0);
    // The fleet's clients stand in for phones and run below the servers' priority (--fleet-nice, default 10).
    expect(mixed.figures).toMatchObject({ fleetNice: 10, setUploadsPerS: expect.any(Number) });
    expect(r.code).toBe(results.every((x) => x.met) ? 0 : 3);
    // Four benches: measured 4.6 minutes with the machine saturated (load average 15–20 on 2 CPUs).
  }, 600_000);
});

describe("the result line", () => {
  it("names what is wrong with a malformed line", () => {
    expect(shapeProblems({ bench: "x", figures: { a: "1" }, baselines: {}, ratios: {}, targets: { a: { below: 1 } }, met: "yes" })).toEqual(
      ["figures.a is not a number", "targets.a is not {max} or {min}", "met is not true or false"],
    );
    expect(
      missedTargets({ figures: { p99: 25 }, ratios: { mem: 1.2 }, targets: { p99: { max: 20 }, mem: { max: 1.3 }, gone: { min: 1 } } }),
    ).toEqual(["p99", "gone"]);
  });
});
