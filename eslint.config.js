import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * The layering (docs/architecture.md): imports point down, server/ → app/ → jobs/ → device-service/ | web-filter/ → db/ → core/.
 * server/ composes the processes; app/ is the web layer; jobs/ runs the queues' work and calls the device service;
 * web-filter/ (the per-kid DNS filter) sits beside device-service/: neither imports the other, and jobs/ does not import it;
 * the job contract (queue names, payloads, queue interfaces) lives in core/job-queues.ts, below both. A room's files
 * may not import a room above it, by a relative path, by ~/ (app/) or by a #room/ alias; app/ reaches the rooms below
 * only by alias (#core/…, #db/…, #device-service/…, #web-filter/…, #jobs/…), and the other rooms use relative paths. Two more rules:
 * runtime code does not import the demo seed (db/seed/: data for `npm start`, tests and benches, composed by
 * server/), and tests may use the composition root's own test helpers (server/*.testing.ts) to start a service as a
 * process does. Static imports and re-exports through no-restricted-imports, dynamic import() through
 * no-restricted-syntax. tests/layering.test.ts checks both the tree and the rule.
 */
const ROOMS = ["server", "app", "jobs", "device-service", "web-filter", "db", "core"];
/** The rooms each room may not import: every room listed before it, and the sibling beside it (device-service/ and web-filter/). */
const SIBLINGS = { jobs: ["web-filter"], "device-service": ["web-filter"] };
const ABOVE = Object.fromEntries(ROOMS.map((room, i) => [room, [...ROOMS.slice(0, i), ...(SIBLINGS[room] ?? [])]]));
const DOWN = "imports point down: server → app → jobs → device-service | web-filter → db → core";
const TESTS = ["**/*.test.{ts,tsx}", "**/*.testing.{ts,tsx}"];
/** Where the demo seed may be imported: the seed itself, its command line, the composition root and tests. */
const SEED_USERS = ["db/seed/**", "db/cli.ts", "server/**", ...TESTS];
const up = (room) => `^(\\.{1,2}/)+${room}(/|$)`;
const noTests = { selector: "CallExpression[callee.property.name=/^(only|skip)$/]", message: "No .only/.skip in tests." };
const seed = {
  regex: "^(#db/|(\\.{1,2}/)+(db/)?)seed(/|$)",
  message: "Runtime code may not import the demo seed (db/seed/): constants it needs live in core/.",
};

/** The import patterns refused in `room` (tests: the composition root's *.testing.ts helpers allowed). */
function refused(room, { tests, seedUser }) {
  const above = ABOVE[room];
  const patterns = above.map((r) => ({
    regex: tests && r === "server" ? `${up("server").replace("(/|$)", "/")}(?!.*\\.testing$)` : up(r),
    message: `${room}/ may not import ${r}/ (${DOWN}).`,
  }));
  if (above.includes("app")) patterns.push({ regex: "^~/", message: `${room}/ may not import app/ (${DOWN}).` });
  for (const r of above.filter((r) => r !== "app" && r !== "server"))
    patterns.push({ regex: `^#${r}/`, message: `${room}/ may not import ${r}/ (${DOWN}).` });
  if (room === "app") {
    for (const r of ["core", "db", "device-service", "web-filter", "jobs"])
      patterns.push({ regex: up(r), message: `From app/, reach ${r}/ by its alias: "#${r}/…" (one style everywhere; tsconfig paths).` });
  } else patterns.push({ regex: "^#", message: `Inside ${room}/ imports are relative paths; the #room/ aliases are for app/.` });
  if (!seedUser) patterns.push(seed);
  return patterns;
}

function layerRules(room, kind) {
  const tests = kind === "tests";
  const files = tests ? TESTS.map((t) => `${room}/${t}`) : [`${room}/**/*.{ts,tsx,js,mjs}`];
  const ignores = tests ? [] : [...TESTS.map((t) => `${room}/${t}`), ...SEED_USERS.filter((g) => g.startsWith(`${room}/`))];
  const seedUser = tests || room === "server";
  const patterns = refused(room, { tests, seedUser });
  const dynamic = patterns.map((p) => ({
    selector: `ImportExpression[source.value=/${p.regex.replaceAll("/", "\\x2F")}/]`,
    message: p.message,
  }));
  return {
    files,
    ignores,
    rules: {
      "no-restricted-imports": ["error", { patterns }],
      "no-restricted-syntax": ["error", noTests, ...dynamic],
    },
  };
}

/** The seed's own files and its command line: the layer rules of db/ without the seed rule. */
const seedRules = { ...layerRules("db", "tests"), files: SEED_USERS.filter((g) => g.startsWith("db/")), ignores: [] };

export default tseslint.config(
  { ignores: ["build/**", "public/build/**", "node_modules/**", ".cache/**", "data/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
      "no-restricted-syntax": ["error", noTests],
    },
  },
  ...ROOMS.flatMap((room) => [layerRules(room, "runtime"), layerRules(room, "tests")]),
  seedRules,
  {
    files: ["db/migrations/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
