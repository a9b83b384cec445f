// Shared by `npm start` and `npm test`: install dependencies when missing, build when stale.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync, utimesSync } from "node:fs";
import path from "node:path";

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { stdio: "inherit", shell: false, ...opts });
  if (res.status !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(" ")} failed (exit ${res.status ?? res.signal})`);
    process.exit(res.status ?? 1);
  }
}

function newest(dir) {
  let max = 0;
  if (!existsSync(dir)) return 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) max = Math.max(max, newest(p));
    else max = Math.max(max, statSync(p).mtimeMs);
  }
  return max;
}

/** node_modules missing or older than package-lock.json. */
export function dependenciesAreStale() {
  const marker = "node_modules/.package-lock.json";
  if (!existsSync(marker)) return true;
  return statSync("package-lock.json").mtimeMs > statSync(marker).mtimeMs + 1000;
}

export function ensureDependencies() {
  if (dependenciesAreStale()) {
    console.log("Installing dependencies (npm ci)…");
    run("npm", ["ci", "--no-audit", "--no-fund"]);
  }
}

/** build/ missing or older than any source it is built from. */
export function buildIsStale() {
  const built = existsSync("build/index.js") ? statSync("build/index.js").mtimeMs : 0;
  const sources = Math.max(
    newest("app"),
    newest("core"),
    newest("db"),
    newest("device-service"),
    statSync("remix.config.js").mtimeMs,
    statSync("package-lock.json").mtimeMs,
  );
  return built < sources;
}

/** Builds the Remix app when build/ is missing or older than any source it is built from. */
export function ensureBuild() {
  if (buildIsStale()) {
    console.log("Building the web app…");
    run("npx", ["remix", "build"], { env: { ...process.env, NODE_ENV: "production" } });
    // Remix leaves an unchanged bundle's file as it was: its time then still predates the edited source (a test,
    // a module only server/ imports), and every start would build again.
    const now = new Date();
    utimesSync("build/index.js", now, now);
  }
}
