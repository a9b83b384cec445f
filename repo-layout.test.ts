import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Every source file reads at once: none is over 400 lines. The seed catalogue (data, not logic) and
 * generated code (a file marked `@generated` in its first lines) are the only exceptions.
 */
const MAX_LINES = 400;
const ROOT = path.dirname(new URL(import.meta.url).pathname);
const ROOMS = ["app", "core", "db", "device-service", "jobs", "bench", "e2e", "scripts"];
const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
/** The seed catalogue's data files: db/seed/catalog.ts and db/seed/catalog-*.ts. */
const EXEMPT = /^db\/seed\/catalog(-[a-z0-9-]+)?\.ts$/;
const SKIP_DIRS = new Set(["node_modules", "build"]);

function sourceFiles(dir: string, recurse: boolean): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(ROOT, dir), { withFileTypes: true });
  } catch {
    return []; // a room that does not exist (yet)
  }
  const out: string[] = [];
  for (const e of entries) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (recurse && !e.name.startsWith(".") && !SKIP_DIRS.has(e.name)) out.push(...sourceFiles(rel, true));
    } else if (e.isFile() && SOURCE.test(e.name)) out.push(rel);
  }
  return out;
}

function oversizedFiles(max = MAX_LINES): { file: string; lines: number }[] {
  const files = [...sourceFiles("", false), ...ROOMS.flatMap((room) => sourceFiles(room, true))];
  return files
    .filter((file) => !EXEMPT.test(file))
    .map((file) => {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      return { file, text, lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0) };
    })
    .filter((f) => f.lines > max && !/@generated/.test(f.text.split("\n", 5).join("\n")))
    .map(({ file, lines }) => ({ file, lines }))
    .sort((a, b) => b.lines - a.lines);
}

describe("repository layout", () => {
  it("sees the source files of every room (the check itself works)", () => {
    const seen = [...sourceFiles("", false), ...ROOMS.flatMap((room) => sourceFiles(room, true))];
    for (const f of ["server.ts", "app/root.tsx", "db/schema.ts", "device-service/http.ts", "jobs/worker.ts", "e2e/dashboard.spec.ts", "scripts/test.mjs"])
      expect(seen).toContain(f);
    expect(seen.some((f) => f.startsWith("node_modules/") || f.startsWith("build/"))).toBe(false);
    expect(oversizedFiles(100).length).toBeGreaterThan(0);
  });

  it(`keeps every source file at ${MAX_LINES} lines or fewer (seed catalogue and generated code aside)`, () => {
    const offenders = oversizedFiles().map((f) => `${f.file} (${f.lines} lines)`);
    expect(offenders, `split these files: ${offenders.join(", ")}`).toEqual([]);
  });
});
