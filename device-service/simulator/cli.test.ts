import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../../server/harness.testing";

const run = promisify(execFile);
const MIA = "DEMO-MIA-0001";

/** `npm run device:sim -- request <kind> <package>`: the kid's request from the command line (issue 14). */
describe("device simulator command line: requests", () => {
  let h: Harness;
  let credential: string;
  beforeAll(async () => {
    h = await startHarness();
    const phone = await h.phone(MIA, { connect: false });
    credential = phone.credential!;
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it.each([
    ["install", "org.scratchjr.android", "App Install", 0],
    ["uninstall", "com.duolingo", "App Uninstall", 0],
    ["extend", "com.duolingo", "Extend Time", 45],
  ] as const)(
    "request %s %s is stored as %s",
    async (kind, pkg, type, minutes) => {
      const { stdout } = await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "device-service/simulator/cli.ts",
          "request",
          kind,
          pkg,
          "--url",
          h.url,
          "--credential",
          credential,
          "--serial",
          MIA,
          "--minutes",
          "45",
          "--remarks",
          "from the cli",
        ],
        { timeout: 30_000 },
      );
      expect(stdout).toMatch(/request stored/);
      const mia = await h.kid(MIA);
      const row = await h.tdb.db
        .selectFrom("app_requests")
        .selectAll()
        .where("profile_id", "=", mia.profileId)
        .where("request_type", "=", type)
        .where("package_name", "=", pkg)
        .executeTakeFirst();
      expect(row).toMatchObject({ status: "Pending", remarks: "from the cli", extended_time: minutes });
    },
    40_000,
  );

  it("rate <package> --stars n --review text is stored as Mia's rating", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        "device-service/simulator/cli.ts",
        "rate",
        "org.scratchjr.android",
        "--stars",
        "4",
        "--review",
        "from the cli",
        "--url",
        h.url,
        "--credential",
        credential,
        "--serial",
        MIA,
      ],
      { timeout: 30_000 },
    );
    expect(stdout).toMatch(/rating stored \(4 stars/);
    const mia = await h.kid(MIA);
    const row = await h.tdb.db
      .selectFrom("kid_ratings")
      .selectAll()
      .where("profile_id", "=", mia.profileId)
      .where("package_name", "=", "org.scratchjr.android")
      .executeTakeFirst();
    expect(row).toMatchObject({ rating: 4, review: "from the cli" });
  }, 40_000);
});

/** Issue 52 finding 11: `npm run device:sim -- --help` prints its usage and exits 0 (it crashed on the unknown option). */
describe("device simulator command line: help", () => {
  it("--help prints the usage and exits 0; an unknown option says which and exits 2", async () => {
    const { stdout } = await run("npm", ["run", "--silent", "device:sim", "--", "--help"], { timeout: 30_000 });
    expect(stdout).toContain("Usage:");
    expect(stdout).toContain("npm run device:sim -- --url <portal> --token <enrollment token>");
    expect(stdout).toContain("-h, --help");
    const wrong = await run(process.execPath, ["--import", "tsx", "device-service/simulator/cli.ts", "--frobnicate"], {
      timeout: 30_000,
    }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(wrong?.code).toBe(2);
    expect(wrong?.stderr).toMatch(/Unknown option '--frobnicate'/);
    expect(wrong?.stderr).toContain("Usage:");
  }, 40_000);
});
