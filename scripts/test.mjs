// `npm test`: install what is missing (dependencies, Debian's chromium-headless-shell, default-jre-headless and knot-dnsutils), then type check, lint, the
// formatter's check, unit and
// integration tests (SQLite and PostgreSQL, Redis), and the Playwright journeys in Debian's Chromium.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ensureBuild, ensureDependencies, run } from "./ensure.mjs";

// Debian's headless build of Chromium (package chromium-headless-shell, the same sources and version as `chromium`):
// the journeys took 35 % less time with it than with the full browser (docs/decisions/006-headless-shell-for-the-journeys.md).
const SHELL = "/usr/bin/chromium-headless-shell";
const FULL = "/usr/bin/chromium";

function isRootWithApt() {
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return isRoot && spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
}

/** The browser the journeys run in: CHROMIUM_PATH when set, else Debian's headless shell (installed when missing and apt is usable), else Debian's chromium. */
function ensureChromium() {
  if (process.env.CHROMIUM_PATH) {
    if (existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
    console.error(`\n✖ CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist.`);
    process.exit(1);
  }
  if (existsSync(SHELL)) return SHELL;
  if (isRootWithApt()) {
    console.log("Installing Debian's chromium-headless-shell for the end-to-end tests…");
    const r = spawnSync(
      "sh",
      ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell"],
      { stdio: "inherit" },
    );
    if (r.status === 0 && existsSync(SHELL)) return SHELL;
    if (existsSync(FULL)) return FULL;
    console.log("No chromium-headless-shell package here: installing Debian's chromium…");
    run("sh", ["-c", "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"]);
    return FULL;
  }
  if (existsSync(FULL)) return FULL;
  console.error(
    `\n✖ The end-to-end tests need Debian's Chromium (${SHELL} or ${FULL}). Install it with:\n    sudo apt-get install chromium-headless-shell\n  or set CHROMIUM_PATH.`,
  );
  process.exit(1);
}

/** The Nu Html Checker (vnu-jar, e2e/a11y.spec.ts and markup.test.ts) runs on Java: Debian's default-jre-headless. */
function ensureJava() {
  if (spawnSync("sh", ["-c", "command -v java"]).status === 0) return;
  if (isRootWithApt()) {
    console.log("Installing Debian's default-jre-headless for the markup checks…");
    run("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless"]);
    return;
  }
  console.error("\n✖ The markup checks need Java (the Nu Html Checker). Install it with:\n    sudo apt-get install default-jre-headless");
  process.exit(1);
}

/** The web filter's tests speak DNS-over-TLS and DNS-over-HTTPS with a real client: kdig, from Debian's knot-dnsutils. */
function ensureKdig() {
  if (existsSync("/usr/bin/kdig")) return;
  if (isRootWithApt()) {
    console.log("Installing Debian's knot-dnsutils (kdig) for the web filter's tests…");
    run("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq knot-dnsutils"]);
    return;
  }
  console.error("\n✖ The web filter's tests need kdig (/usr/bin/kdig). Install it with:\n    sudo apt-get install knot-dnsutils");
  process.exit(1);
}

function service(name, cmd) {
  try {
    execSync(cmd, { stdio: "ignore", timeout: 5000 });
  } catch {
    console.error(`\n✖ ${name} is needed by the tests and was not reachable (${cmd}).`);
    process.exit(1);
  }
}

ensureDependencies();
const CHROMIUM = ensureChromium();
ensureJava();
ensureKdig();
const env = { ...process.env, NODE_ENV: "test" };
env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
env.TEST_REDIS_URL ??= "redis://127.0.0.1:6379";
service(
  "PostgreSQL",
  `node -e "const c=new (require('pg').Client)('${env.TEST_DATABASE_URL}');c.connect().then(()=>c.end()).catch(()=>process.exit(1))"`,
);
service(
  "Redis",
  `node -e "const R=require('ioredis');const r=new R('${env.TEST_REDIS_URL}',{lazyConnect:true,maxRetriesPerRequest:1});r.connect().then(()=>r.ping()).then(()=>{r.disconnect()}).catch(()=>process.exit(1))"`,
);

const only = process.argv[2];
if (!only || only === "static") {
  run("npx", ["tsc", "--noEmit"]);
  run("npx", ["eslint", ".", "--max-warnings=0"]);
  run("npx", ["prettier", "--check", "--log-level=warn", "."]);
}
if (!only || only === "unit") {
  ensureBuild(); // server tests run the built app
  run("npx", ["vitest", "run"], { env });
}
if (!only || only === "e2e") {
  ensureBuild();
  run("npx", ["playwright", "test"], { env: { ...env, CHROMIUM_PATH: CHROMIUM } });
}
console.log("\n✔ All tests passed.");
