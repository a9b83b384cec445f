import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * The house: the root holds configuration only, and every test helper is named `*.testing.ts` (or .tsx), beside the
 * code it serves. Files are split where they hold more than one responsibility, not by a line count.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tracked = () => execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n").filter(Boolean);

/** What may sit at the root besides folders: configuration and the README. */
const ROOT_FILES = [
  /^\.[\w.-]+$/, // .gitignore, .env.example, .prettierrc.json, .prettierignore…
  /^README\.md$/,
  /^package(-lock)?\.json$/,
  /^tsconfig\.json$/,
  /^remix\.(config\.js|env\.d\.ts)$/,
  /^(eslint|vitest|playwright|prettier)\.config\.(js|ts|mjs)$/,
];
const FOLDERS = [
  "app",
  "bench",
  "core",
  "db",
  "device-service",
  "docs",
  "e2e",
  "jobs",
  "public",
  "scripts",
  "server",
  "tests",
  "web-filter",
];

/** Names that say "test helper" in the styles this tree used before: a helper is named *.testing.ts instead. */
const HELPER_NAMES = /(^|\/)(testing|helpers?|fixtures?|harness)(\/|\.|$)|(-fixture|-harness|-double)\.tsx?$/;

describe("repository layout", () => {
  it("keeps configuration only at the root", () => {
    const rootFiles = tracked().filter((f) => !f.includes("/"));
    expect(rootFiles.length).toBeGreaterThan(5); // the check sees the root
    expect(rootFiles.filter((f) => !ROOT_FILES.some((re) => re.test(f)))).toEqual([]);
    const folders = new Set(
      tracked()
        .filter((f) => f.includes("/") && !f.startsWith("."))
        .map((f) => f.split("/")[0]),
    );
    expect([...folders].filter((d) => !FOLDERS.includes(d))).toEqual([]);
  });

  it("names every test helper *.testing.ts (no testing/ folders, helpers/, fixtures or harness files by other names)", () => {
    const files = tracked().filter((f) => /\.(ts|tsx|mjs)$/.test(f));
    expect(files.filter((f) => /\.testing\.tsx?$/.test(f)).length).toBeGreaterThan(5);
    const offenders = files.filter((f) => HELPER_NAMES.test(f) && !/\.(testing|test|spec)\.tsx?$/.test(f));
    expect(offenders).toEqual([]);
  });

  it("the helper-name check refuses the old styles", () => {
    for (const f of [
      "db/testing.ts",
      "e2e/helpers/auth.ts",
      "app/authz-fixture.ts",
      "app/route-harness.ts",
      "app/payments/testing/stripe-double.ts",
    ])
      expect(HELPER_NAMES.test(f), f).toBe(true);
    for (const f of ["server/harness.testing.ts", "db/index.testing.ts", "device-service/routers/online.ts"])
      expect(HELPER_NAMES.test(f) && !/\.testing\.tsx?$/.test(f), f).toBe(false);
  });
});
