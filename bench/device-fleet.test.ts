import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "bench/device-fleet.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", (d) => (stderr += d));
    proc.once("error", reject);
    proc.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Issue 9 item 11: the fleet bench explains itself instead of starting (or crashing) on --help. */
describe("bench/device-fleet.ts", () => {
  it.each([["--help"], ["-h"]])("%s prints every flag with its default and exits 0 without running anything", async (flag) => {
    const r = await run([flag]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /);
    for (const f of ["--phones", "--processes", "--client-processes", "--rtt", "--deadline", "--json", "--help"])
      expect(r.stdout).toContain(f);
    expect(r.stdout).not.toMatch(/# device fleet bench/);
  });

  it("an unknown flag is a usage error with a plain message (exit 2), not a stack trace", async () => {
    const r = await run(["--phone", "5"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Unknown option '--phone'/);
    expect(r.stderr).toMatch(/--help/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
