import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/**
 * Imports point down: server/ → app/ → jobs/ → device-service/ | web-filter/ → db/ → core/ (docs/architecture.md);
 * device-service/ and web-filter/ are siblings (neither imports the other, nor does jobs/ import web-filter/). app/ reaches
 * the rooms below through one alias each (#core/…, #db/…, #device-service/…, #web-filter/…, #jobs/…); the other rooms use
 * relative paths. Tests may use the composition root's test helpers (server/*.testing.ts); runtime code never
 * imports the demo seed (db/seed/). ESLint says so too (eslint.config.js): this file checks the tree, and that the
 * lint rule really refuses a wrong import.
 */
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const LAYERS = ["server", "app", "jobs", "device-service", "web-filter", "db", "core"] as const;
type Layer = (typeof LAYERS)[number];
const ALIASES: Record<string, Layer> = {
  "~": "app",
  "#core": "core",
  "#db": "db",
  "#device-service": "device-service",
  "#web-filter": "web-filter",
  "#jobs": "jobs",
};
const SOURCE = /\.(ts|tsx|mjs|js)$/;

function files(dir: string): string[] {
  if (!existsSync(path.join(ROOT, dir))) return [];
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "node_modules" ? [] : files(rel);
    return SOURCE.test(e.name) ? [rel] : [];
  });
}

/** Every module specifier of a file: static imports, re-exports and dynamic import(). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^import\s+["']([^"']+)["']/gm,
  ))
    out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The room a specifier lands in (by alias or by resolving a relative path), or null for packages and top-level files. */
function target(file: string, spec: string): { layer: Layer | null; via: "alias" | "relative" } | null {
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(`${a}/`));
  if (alias) return { layer: ALIASES[alias], via: "alias" };
  if (!spec.startsWith(".")) return null;
  const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
  return { layer: LAYERS.find((l) => resolved.startsWith(`${l}/`)) ?? null, via: "relative" };
}

const layerOf = (file: string) => LAYERS.find((l) => file.startsWith(`${l}/`))!;
/** The rooms each room may not import: every room listed before it, and web-filter/ beside device-service/ (and above jobs/' reach). */
const SIBLINGS: Partial<Record<Layer, Layer[]>> = { jobs: ["web-filter"], "device-service": ["web-filter"] };
const ABOVE = Object.fromEntries(LAYERS.map((l, i) => [l, [...LAYERS.slice(0, i), ...(SIBLINGS[l] ?? [])]])) as Record<Layer, Layer[]>;
const isTest = (file: string) => /\.(test|testing)\.tsx?$/.test(file);
/** Tests may start a service as a process does, through the composition root's test helpers. */
const allowed = (i: { file: string; spec: string }) => isTest(i.file) && /(^|\/)server\/[\w.-]+\.testing$/.test(i.spec);
const below = (from: Layer, to: Layer) => !ABOVE[from].includes(to);
/** Where the demo seed may be imported: the seed itself, its command line, the composition root and tests. */
const seedUser = (file: string) => file.startsWith("db/seed/") || file === "db/cli.ts" || file.startsWith("server/") || isTest(file);

function imports() {
  return LAYERS.flatMap((l) => files(l)).flatMap((file) =>
    specifiers(readFileSync(path.join(ROOT, file), "utf8")).map((spec) => ({ file, spec, to: target(file, spec) })),
  );
}

describe("layering", () => {
  it("the import scan sees the imports it must judge (the check itself works)", () => {
    const all = imports();
    expect(all.length).toBeGreaterThan(500);
    expect(all.some((i) => i.file === "server/web.ts")).toBe(true);
    expect(
      specifiers(
        `import { a } from "./x";\nexport { b } from "../y";\nconst c = await import("#db/z");\nimport type {\n  D,\n} from "~/w";`,
      ),
    ).toEqual(["./x", "../y", "#db/z", "~/w"]);
    expect(target("app/routes/x.tsx", "../../db/index")).toEqual({ layer: "db", via: "relative" });
    expect(target("db/queries/x.ts", "../../app/utils/y")).toEqual({ layer: "app", via: "relative" });
  });

  it("core/ holds what every process shares", () => {
    for (const f of [
      "core/env.server.ts",
      "core/log.ts",
      "core/password.server.ts",
      "core/ids.server.ts",
      "core/format.ts",
      "core/values.ts",
      "core/session-cookie.server.ts",
    ])
      expect(existsSync(path.join(ROOT, f)), f).toBe(true);
    // Module names without ".ts": the move script rewrites mentions of whole file names.
    for (const m of ["app/utils/env.server", "app/utils/log.server", "app/utils/password.server", "db/queries/ids", "app/utils/format"])
      expect(existsSync(path.join(ROOT, `${m}.ts`)), `${m} moved to core/`).toBe(false);
  });

  it("no import runs the wrong way (server → app → jobs → device-service | web-filter → db → core)", () => {
    const wrong = imports()
      .filter((i) => i.to?.layer && !below(layerOf(i.file), i.to.layer) && !allowed(i))
      .map((i) => `${i.file} imports ${i.spec}`);
    expect(wrong).toEqual([]);
  });

  it("runtime code does not import the demo seed", () => {
    const all = imports().filter((i) => /(^|\/)seed\//.test(i.spec) && i.to?.layer === "db");
    expect(all.length).toBeGreaterThan(3); // the scan sees the seed's users
    expect(all.filter((i) => !seedUser(i.file)).map((i) => `${i.file} imports ${i.spec}`)).toEqual([]);
  });

  it("app/ reaches the rooms below by alias; the other rooms use relative paths", () => {
    const off = imports()
      .filter((i) => i.to?.layer && i.to.layer !== layerOf(i.file))
      .filter((i) => (layerOf(i.file) === "app" && i.to!.layer !== "server" ? i.to!.via !== "alias" : i.to!.via !== "relative"))
      .map((i) => `${i.file} imports ${i.spec}`);
    expect(off).toEqual([]);
  });

  it("tsconfig paths and vitest's aliases name the same rooms", async () => {
    const tsconfig = JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as {
      compilerOptions: { paths: Record<string, string[]> };
    };
    const fromTs = Object.fromEntries(
      Object.entries(tsconfig.compilerOptions.paths).map(([k, [v]]) => [
        k.replace(/\/\*$/, ""),
        v.replace(/^\.\//, "").replace(/\/\*$/, ""),
      ]),
    );
    expect(fromTs).toEqual(Object.fromEntries(Object.entries(ALIASES).map(([a, l]) => [a, l])));
    const vitest = (await import("../vitest.config")).default as { resolve: { alias: Record<string, string> } };
    expect(Object.fromEntries(Object.entries(vitest.resolve.alias).map(([k, v]) => [k, path.relative(ROOT, v)]))).toEqual(fromTs);
  });
});

describe("the lint rule (eslint.config.js)", () => {
  const eslint = new ESLint({ cwd: ROOT });
  async function importErrors(file: string, spec: string): Promise<string[]> {
    const [result] = await eslint.lintText(`import { x } from "${spec}";\nexport const y = x;\n`, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax").map((m) => m.message);
  }
  async function dynamicErrors(file: string, spec: string): Promise<string[]> {
    const [result] = await eslint.lintText(`export const y = await import("${spec}");\n`, { filePath: path.join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
  }

  it.each([
    ["db/queries/probe.ts", "../../app/utils/toast.server"],
    ["db/probe.ts", "~/utils/toast.server"],
    ["db/probe.ts", "../device-service/bus"],
    ["db/seed/probe.ts", "../../jobs/runner"],
    ["jobs/probe.ts", "../app/utils/toast.server"],
    ["jobs/processors/probe.ts", "~/utils/toast.server"],
    ["device-service/probe.ts", "../app/utils/toast.server"],
    ["device-service/routers/probe.ts", "~/utils/auth.server"],
    ["core/probe.ts", "../db/index"],
    ["core/probe.ts", "../app/root"],
    ["core/probe.ts", "../device-service/bus"],
    ["core/probe.ts", "../jobs/runner"],
    ["device-service/probe.ts", "../jobs/runner"],
    ["device-service/socket/probe.ts", "../../jobs/processors/index"],
    ["device-service/probe.test.ts", "../jobs/recover"],
    ["device-service/probe.ts", "../server/services"],
    ["app/routes/probe.tsx", "../../server/services"],
    ["jobs/probe.ts", "../server/web"],
    ["jobs/probe.test.ts", "../server/services"],
    ["device-service/probe.ts", "../server/harness.testing"],
    ["device-service/store-probe.ts", "../db/seed/catalog"],
    ["app/components/probe.server.ts", "#db/seed/index"],
    ["db/queries/probe.ts", "../seed/index"],
    ["jobs/reports/probe.ts", "../../db/seed/index"],
    ["core/probe.ts", "../db/seed/catalog"],
    ["core/probe.ts", "#db/index"],
    ["app/routes/probe.tsx", "../../db/index"],
    ["app/utils/probe.ts", "../../core/values"],
    ["device-service/probe.ts", "#db/index"],
    ["web-filter/probe.ts", "../device-service/bus"],
    ["web-filter/resolver/probe.ts", "../../app/utils/toast.server"],
    ["web-filter/probe.ts", "../jobs/runner"],
    ["web-filter/probe.ts", "../server/services"],
    ["web-filter/probe.ts", "#db/index"],
    ["device-service/probe.ts", "../web-filter/resolver/resolver"],
    ["jobs/probe.ts", "../web-filter/resolver/resolver"],
    ["db/probe.ts", "../web-filter/resolver/resolver"],
    ["core/probe.ts", "../web-filter/resolver/resolver"],
    ["app/routes/probe.tsx", "../../web-filter/doh"],
  ])("refuses %s importing %s", async (file, spec) => {
    expect(await importErrors(file, spec)).not.toEqual([]);
  });

  it.each([
    ["db/probe.ts", "../app/utils/toast.server"],
    ["db/probe.ts", "../device-service/socket/telemetry"],
    ["device-service/probe.ts", "../app/utils/toast.server"],
    ["device-service/probe.ts", "../jobs/processors/index"],
    ["core/probe.ts", "../db/index"],
    ["app/utils/probe.ts", "#db/seed/index"],
    ["device-service/probe.ts", "../web-filter/resolver/resolver"],
    ["web-filter/probe.ts", "../device-service/bus"],
  ])("refuses a dynamic import from %s of %s", async (file, spec) => {
    expect(await dynamicErrors(file, spec)).not.toEqual([]);
  });

  it.each([
    ["app/routes/probe.tsx", "#db/index"],
    ["app/routes/probe.tsx", "#core/values"],
    ["app/routes/probe.tsx", "~/utils/toast.server"],
    ["device-service/probe.ts", "../db/index"],
    ["device-service/probe.ts", "../core/job-queues"],
    ["jobs/probe.ts", "../db/index"],
    ["jobs/probe.ts", "../device-service/context"],
    ["server/probe.ts", "../jobs/runner"],
    ["server/probe.ts", "../app/utils/sse.server"],
    ["server/probe.ts", "../db/seed/index"],
    ["device-service/probe.test.ts", "../server/harness.testing"],
    ["app/routes/probe.test.ts", "../../server/web.testing"],
    ["device-service/probe.test.ts", "../db/seed/index"],
    ["db/seed/probe.ts", "./catalog"],
    ["db/cli.ts", "./seed/index"],
    ["jobs/processors/probe.ts", "../../device-service/context"],
    ["db/probe.ts", "../core/values"],
    ["core/probe.ts", "./values"],
    ["web-filter/probe.ts", "../db/index"],
    ["web-filter/resolver/probe.ts", "../../core/log"],
    ["app/routes/probe.tsx", "#web-filter/doh"],
    ["server/probe.ts", "../web-filter/doh"],
    ["web-filter/probe.test.ts", "../server/harness.testing"],
  ])("allows %s importing %s", async (file, spec) => {
    expect(await importErrors(file, spec)).toEqual([]);
  });
});
