import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { closedPeriods } from "../../core/report-periods";
import { createDb, migrateToLatest } from "../../db/index";
import { progressLine } from "./progress";
import { makeFamily } from "./reports.testing";

const run = promisify(execFile);

describe("npm run reports:build -- --since", () => {
  it("draws a progress bar on a terminal and progress lines in a log", () => {
    expect(progressLine(12, 24, 30, true)).toBe("[##########··········] 12/24 kids · 30 reports built");
    expect(progressLine(1, 3, 1, false)).toBe("1/3 kids, 1 report built");
  });

  it("back-fills the missing reports with progress lines and a summary; a rerun builds none", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-reports-cli-"));
    const file = path.join(dir, "portal.sqlite");
    const db = createDb({ url: file });
    await migrateToLatest(db);
    await makeFamily(db, { name: "Mia", kind: "Weekly", tz: "UTC" });
    await makeFamily(db, { name: "Leo", kind: "Monthly", tz: "Asia/Tokyo" });
    await makeFamily(db, { name: "Off", kind: "Off", tz: "UTC" });
    await db.destroy();
    const now = new Date();
    const expected =
      closedPeriods("Weekly", "2026-09-01", now, "UTC").length + closedPeriods("Monthly", "2026-09-01", now, "Asia/Tokyo").length;

    const env = { ...process.env, DATA_DIR: dir, DATABASE_URL: `file:${file}`, NODE_ENV: "test" as const, SESSION_SECRET: "c".repeat(40) };
    const cli = (args: string[]) => run(process.execPath, ["--import", "tsx", "jobs/reports/cli.ts", ...args], { env, timeout: 60_000 });
    const first = await cli(["--since", "2026-09-01"]);
    expect(first.stdout).toContain("2/2 kids");
    expect(first.stdout).toContain(`Built ${expected} reports for 2 kids since 2026-09-01; 0 already there.`);
    const again = await cli(["--since", "2026-09-01"]);
    expect(again.stdout).toContain(`Built 0 reports for 2 kids since 2026-09-01; ${expected} already there.`);
    await expect(cli(["--since", "soon"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--since needs a date like 2026-01-01."),
    });
  });
});
