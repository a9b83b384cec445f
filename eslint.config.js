import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/**
 * The layering (docs/architecture.md): imports point down, app/ → device-service/ and jobs/ → db/ → core/.
 * device-service/ and jobs/ share a floor (the service enqueues by queue name and payload; a processor calls
 * the service's plain functions); neither imports app/. A room's files may not import a room above it, by a
 * relative path, by ~/ (app/) or by a #room/ alias; app/ reaches the rooms below only by alias (#core/…,
 * #db/…, #device-service/…, #jobs/…), and the rooms below use relative paths among themselves. Static imports
 * and re-exports through no-restricted-imports, dynamic import() through no-restricted-syntax.
 * layering.test.ts checks both the tree and the rule.
 */
const ABOVE = {
  "device-service": ["app"],
  jobs: ["app"],
  db: ["app", "device-service", "jobs"],
  core: ["app", "device-service", "jobs", "db"],
};
const DOWN = "imports point down: app → device-service, jobs → db → core";
const up = (room) => `^(\\.{1,2}/)+${room}(/|$)`;
const noTests = { selector: "CallExpression[callee.property.name=/^(only|skip)$/]", message: "No .only/.skip in tests." };

function layerRules(room) {
  const above = ABOVE[room];
  const patterns = [
    ...above.map((r) => ({ regex: up(r), message: `${room}/ may not import ${r}/ (${DOWN}).` })),
    ...(above.includes("app") ? [{ regex: "^~/", message: `${room}/ may not import app/ (${DOWN}).` }] : []),
    ...above.filter((r) => r !== "app").map((r) => ({ regex: `^#${r}/`, message: `${room}/ may not import ${r}/ (${DOWN}).` })),
    { regex: "^#", message: `Inside ${room}/ imports are relative paths; the #room/ aliases are for app/.` },
  ];
  const dynamic = patterns.map((p) => ({
    selector: `ImportExpression[source.value=/${p.regex.replaceAll("/", "\\x2F")}/]`,
    message: p.message,
  }));
  return {
    files: [`${room}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      "no-restricted-imports": ["error", { patterns }],
      "no-restricted-syntax": ["error", noTests, ...dynamic],
    },
  };
}

const appRules = {
  files: ["app/**/*.{ts,tsx,js,mjs}"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: ["core", "db", "device-service", "jobs"].map((r) => ({
          regex: up(r),
          message: `From app/, reach ${r}/ by its alias: "#${r}/…" (one style everywhere; tsconfig paths).`,
        })),
      },
    ],
  },
};

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
  ...Object.keys(ABOVE).map(layerRules),
  appRules,
  {
    files: ["db/migrations/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
