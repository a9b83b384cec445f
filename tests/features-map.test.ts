import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * docs/features.md maps the product's spec (docs/spec/, copied unchanged into the repository so a fresh clone
 * has it) to the code. This test keeps the map whole and true:
 * - every route the spec names (both documents) appears in the map, backticked, and its row names the route
 *   module that serves it;
 * - every repository path the map names exists, every tRPC procedure it names is in its router, and every
 *   table its legend names is in the schema file it is listed under.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SPEC_DIR = path.join(ROOT, "docs/spec");
const MAP_FILE = "docs/features.md";
const map = readFileSync(path.join(ROOT, MAP_FILE), "utf8");

const specs = readdirSync(SPEC_DIR)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((file) => ({ file, text: readFileSync(path.join(SPEC_DIR, file), "utf8") }));

/**
 * A route as the spec writes it: a path starting with `/` that does not follow a letter, digit, `/`, `.` or `:`
 * (so "Block/Unblock", "unit_amount/100" and addresses are not routes): `/login`, `/password/set`,
 * `/kids/{file}`, `/login?hideGBtn=true` (the query is not part of the route), and `/` alone ("the parent of /").
 * Not routes: a path right after an HTTP method (`POST /users/login` is a call of the old backend's API,
 * section 7), and a lone `/` followed by a space ("This Week / Previous Week" is prose).
 */
const ROUTE = /(?<![\w/.:-])\/(?:[A-Za-z0-9{}-]+(?:\/[A-Za-z0-9{}-]+)*)?/g;
const AFTER_METHOD = /\b(?:GET|POST|PUT|PATCH|DELETE)\s+$/;

function specRoutes(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(ROUTE)) {
    const at = m.index ?? 0;
    const route = m[0];
    if (AFTER_METHOD.test(markdown.slice(Math.max(0, at - 10), at))) continue;
    if (route === "/" && /^(\s|$)/.test(markdown.slice(at + 1, at + 2))) continue;
    found.add(route);
  }
  return [...found].sort();
}

/** The URL a Remix flat-route module serves: `_app.kids-device.tsx` → /kids-device, `kids.$file.tsx` → /kids/{file}. */
function routeOfModule(file: string): string {
  const segments = path
    .basename(file)
    .replace(/\.(tsx|ts|jsx|js)$/, "")
    .split(".")
    .filter((s) => s === "_index" || !s.startsWith("_"))
    .map((s) => (s === "_index" ? "" : s === "$" ? "*" : s.startsWith("$") ? `{${s.slice(1)}}` : s))
    .filter((s) => s !== "");
  return `/${segments.join("/")}`;
}

/** Repository paths with a file extension: `app/routes/_app.kids-device.tsx`, `db/queries/kids.ts`, … */
const REPO_PATH = /(?<![\w./-])(?:app|db|device-service|jobs|core|e2e|server)\/[\w.$@{}[\]/-]*\.[A-Za-z0-9]+(?![\w/])/g;
/** tRPC procedures as the map writes them: `kids.setSleepMode` is `setSleepMode` in device-service/routers/kids.ts. */
const PROCEDURE = /`(kids|device|settings|enrollment|browser|logs|apps|categories|requests|time|store)\.([a-z][A-Za-z]+)`/g;
/** The tables legend: "- `db/schema.ts`: `parents`, `sessions`, …". */
const LEGEND_LINE = /^- `(db\/schema[\w-]*\.ts)`: (.+)$/gm;

const routesOf = specs.map((s) => ({ file: s.file, routes: specRoutes(s.text) }));
const allRoutes = [...new Set(routesOf.flatMap((s) => s.routes))].sort();

describe("the features map (docs/features.md) against the spec (docs/spec/)", () => {
  it("reads both spec documents and finds their routes (the extraction itself works)", () => {
    expect(specs.map((s) => s.file)).toEqual(["1-accounts-dashboard-devices.md", "2-apps-store-requests-reports-payments.md"]);
    for (const s of routesOf) expect(s.routes.length, `routes found in ${s.file}: ${s.routes.join(" ")}`).toBeGreaterThanOrEqual(12);
    expect(allRoutes.length, allRoutes.join(" ")).toBeGreaterThanOrEqual(25);
    for (const r of [
      "/",
      "/login",
      "/password/set",
      "/kids-device",
      "/report",
      "/reports",
      "/server-logs",
      "/kids/{file}",
      "/users/apple-callback",
    ])
      expect(allRoutes).toContain(r);
    // Calls of the old API (after a method) and prose slashes are not routes.
    for (const r of ["/users/login", "/users/detail", "/Unblock", "/100"]) expect(allRoutes).not.toContain(r);
    expect(specRoutes("Public: /login (also the parent of /). Week: This Week / Previous Week. POST /users/login; x/y")).toEqual([
      "/",
      "/login",
    ]);
  });

  it("names every spec route", () => {
    const missing = allRoutes.filter((r) => !map.includes(`\`${r}\``));
    expect(missing, `spec routes missing from ${MAP_FILE} (write each backticked, e.g. \`/kids-device\`): ${missing.join(", ")}`).toEqual(
      [],
    );
  });

  it("names, in a row of each spec route, the route module that serves it", () => {
    expect(routeOfModule("app/routes/_app.kids-device.tsx")).toBe("/kids-device");
    expect(routeOfModule("app/routes/_auth.password.set.tsx")).toBe("/password/set");
    expect(routeOfModule("app/routes/_index.tsx")).toBe("/");
    expect(routeOfModule("app/routes/kids.$file.tsx")).toBe("/kids/{file}");
    const rows = map.split("\n").filter((line) => line.startsWith("|"));
    const wrong = allRoutes.filter((route) => {
      const served = rows
        .filter((row) => row.includes(`\`${route}\``))
        .flatMap((row) => [...row.matchAll(/`(app\/routes\/[^`]+)`/g)].map((m) => routeOfModule(m[1])));
      return !served.includes(route);
    });
    expect(wrong, `spec routes whose rows name no route module serving them: ${wrong.join(", ")}`).toEqual([]);
  });

  it("names only repository files that exist", () => {
    const named = [...new Set([...map.matchAll(REPO_PATH)].map((m) => m[0]))];
    expect(named.length, "the map names plausibly many files (the check itself works)").toBeGreaterThanOrEqual(150);
    expect(named).toContain("app/routes/_app.kids-device.tsx");
    expect(named).toContain("app/routes/kids.$file.tsx");
    const gone = named.filter((p) => !existsSync(path.join(ROOT, p)) || !statSync(path.join(ROOT, p)).isFile());
    expect(gone, `${MAP_FILE} names files that do not exist: ${gone.join(", ")}`).toEqual([]);
  });

  it("names only tRPC procedures that exist in their routers", () => {
    const named = [...new Set([...map.matchAll(PROCEDURE)].map((m) => `${m[1]}.${m[2]}`))];
    expect(named.length, "the map names plausibly many procedures (the check itself works)").toBeGreaterThanOrEqual(20);
    const unknown = named.filter((p) => {
      const [area, name] = p.split(".");
      const router = path.join(ROOT, "device-service/routers", `${area}.ts`);
      return !existsSync(router) || !new RegExp(`^\\s+${name}: `, "m").test(readFileSync(router, "utf8"));
    });
    expect(unknown, `${MAP_FILE} names procedures that no router defines: ${unknown.join(", ")}`).toEqual([]);
  });

  it("lists in its tables legend only tables of the schema file they are listed under", () => {
    const legend = [...map.matchAll(LEGEND_LINE)];
    expect(legend.length, "the legend lists every db/schema*.ts file").toBe(
      readdirSync(path.join(ROOT, "db")).filter((f) => /^schema[\w-]*\.ts$/.test(f)).length,
    );
    const unknown = legend.flatMap(([, file, list]) => {
      const schema = readFileSync(path.join(ROOT, file), "utf8");
      return [...list.matchAll(/`([a-z_]+)`/g)]
        .map((m) => m[1])
        .filter((t) => !new RegExp(`^\\s+${t}: \\w+Table;`, "m").test(schema))
        .map((t) => `${t} (${file})`);
    });
    expect(unknown, `tables the legend names that its schema file lacks: ${unknown.join(", ")}`).toEqual([]);
  });
});
