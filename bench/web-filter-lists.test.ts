import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "bench/web-filter-lists.ts", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", (d) => (stderr += d));
    proc.once("error", reject);
    proc.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("bench/web-filter-lists.ts", () => {
  it("--help prints every flag and exits 0 without running anything", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: /);
    for (const f of ["--domains", "--json", "--smoke", "--help"]) expect(r.stdout).toContain(f);
    expect(r.stdout).not.toContain("# web filter lists");
  });

  it.each([[["--domain", "5"]], [["--domains", "many"]]])("%j is a usage error (exit 2), not a stack trace", async (args) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
