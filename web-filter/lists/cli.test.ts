import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/index";
import { domainCountsByCategory } from "../../db/queries/web-filter/categories";
import { categoriesOfName } from "../../db/queries/web-filter/domains";
import { CURATED_CATEGORIES } from "./curated";

const dir = mkdtempSync(path.join(os.tmpdir(), "web-filter-import-"));

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ["--import", "tsx", "web-filter/lists/cli.ts", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATA_DIR: dir, DATABASE_URL: "" },
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", (d) => (stderr += d));
    proc.once("error", reject);
    proc.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * 100,000 lines in every format, a tenth each: comments, AdBlock rules, hosts lines, AdBlock exceptions (skipped),
 * `127.0.0.1 localhost` (skipped), four tenths plain domains of which one repeats the line before (a duplicate).
 */
function listFile(): string {
  const lines: string[] = [];
  for (let i = 0; i < 100_000; i++) {
    const kind = i % 10;
    if (kind === 0) lines.push(`# comment ${i}`);
    else if (kind === 1) lines.push(`||ad${i}.example.org^`);
    else if (kind === 2) lines.push(`0.0.0.0 host${i}.example.net`);
    else if (kind === 3) lines.push(`@@||ok${i}.example.org^`);
    else if (kind === 4) lines.push("127.0.0.1 localhost");
    else if (kind === 9) lines.push(`Plain${i - 1}.Example.com.`);
    else lines.push(`plain${i}.example.com`);
  }
  const file = path.join(dir, "big-list.txt");
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const field = (stdout: string, name: string) => new RegExp(`^  ${name}:\\s+([\\d,]+)$`, "m").exec(stdout)?.[1];

describe("npm run web-filter:import", () => {
  let file: string;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    file = listFile();
    server = createServer((_req, res) => res.end("# a remote list\n||remote-one.example.org^\nremote-two.example.org\n"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/list.txt`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("imports 100,000 lines with progress and a summary; a rerun adds nothing; --replace re-reads the source", async () => {
    const first = await run(["--category", "gambling", file]);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Importing into gambling \(source big-list\)\.$/m);
    const progress = first.stdout.split("\n").filter((l) => /^big-list\.txt: [\d,]+ lines \(\d+ %\)$/.test(l));
    expect(progress.length).toBeGreaterThanOrEqual(9);
    expect(progress[progress.length - 1]).toBe("big-list.txt: 100,000 lines (100 %)");
    expect(first.stdout).toMatch(/^Read 100,000 lines in [\d.]+ s\.$/m);
    expect(field(first.stdout, "domains found")).toBe("60,000");
    expect(field(first.stdout, "added")).toBe("60,000");
    expect(field(first.stdout, "already listed")).toBe("0");
    expect(field(first.stdout, "duplicates in input")).toBe("10,000");
    expect(field(first.stdout, "skipped")).toBe("20,000");
    expect(first.stdout).toMatch(/^ {4}AdBlock exception: 10,000$/m);
    expect(first.stdout).toMatch(/^ {4}local name: 10,000$/m);
    expect(field(first.stdout, "comments/blank lines")).toBe("10,000");

    const again = await run(["--category", "gambling", file]);
    expect(again.code).toBe(0);
    expect(field(again.stdout, "added")).toBe("0");
    expect(field(again.stdout, "already listed")).toBe("60,000");

    const replaced = await run(["--category", "gambling", "--replace", file]);
    expect(replaced.code).toBe(0);
    expect(field(replaced.stdout, "removed first")).toBe("60,000");
    expect(field(replaced.stdout, "added")).toBe("60,000");

    const remote = await run(["--category", "adult", "--source", "remote", url]);
    expect(remote.stderr).toBe("");
    expect(field(remote.stdout, "added")).toBe("2");

    const db = createDb({ url: path.join(dir, "portal.sqlite") });
    try {
      const curated = Object.fromEntries(CURATED_CATEGORIES.map((c) => [c.id, c.domains.length]));
      expect(await domainCountsByCategory(db)).toEqual({ ...curated, gambling: curated.gambling + 60_000, adult: curated.adult + 2 });
      expect(await categoriesOfName(db, "www.plain5.example.com")).toEqual(["gambling"]);
      expect(await categoriesOfName(db, "x.remote-one.example.org")).toEqual(["adult"]);
      expect(await categoriesOfName(db, "ok3.example.org")).toEqual([]);
    } finally {
      await db.destroy();
    }
  }, 120_000);

  it.each([["--help"], ["-h"]])("%s prints the usage with every flag and exits 0", async (flag) => {
    const r = await run([flag]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: npm run web-filter:import/);
    for (const f of ["--category", "--source", "--replace", "--help"]) expect(r.stdout).toContain(f);
  });

  it.each([
    [["--categry", "adult", "x.txt"], /Unknown option '--categry'/],
    [["x.txt"], /--category is required/],
    [["--category", "adult"], /at least one file or URL/],
    [["--category", "adult", "--source", "curated", "x.txt"], /shipped list's source/],
    [["--category", "no-such", "x.txt"], /Unknown category "no-such"\. Categories: adult, gambling/],
  ])("%j is a usage error (exit 2) with the usage, no stack trace", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain("Usage: npm run web-filter:import");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("an input that cannot be read fails with a plain message (exit 1)", async () => {
    const r = await run(["--category", "adult", path.join(dir, "missing.txt")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^The lists were not imported: ENOENT/);
  });
});
