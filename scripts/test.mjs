// `npm test`: install what is missing (dependencies, Debian's chromium and default-jre-headless), then type check, lint, unit and
// integration tests (SQLite and PostgreSQL, Redis), and the Playwright journeys in Debian's Chromium.
import { execSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ensureBuild, ensureDependencies, run } from "./ensure.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt) {
    console.log("Installing Debian's chromium for the end-to-end tests…");
    run("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"]);
    return;
  }
  console.error(`\n✖ The end-to-end tests need Debian's chromium at ${CHROMIUM}. Install it with:\n    sudo apt-get install chromium\n  or set CHROMIUM_PATH.`);
  process.exit(1);
}

/** The Nu Html Checker (vnu-jar, e2e/a11y.spec.ts and markup.test.ts) runs on Java: Debian's default-jre-headless. */
function ensureJava() {
  if (spawnSync("sh", ["-c", "command -v java"]).status === 0) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt) {
    console.log("Installing Debian's default-jre-headless for the markup checks…");
    run("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless"]);
    return;
  }
  console.error("\n✖ The markup checks need Java (the Nu Html Checker). Install it with:\n    sudo apt-get install default-jre-headless");
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
ensureChromium();
ensureJava();
const env = { ...process.env, NODE_ENV: "test" };
env.TEST_DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/test";
env.TEST_REDIS_URL ??= "redis://127.0.0.1:6379";
service("PostgreSQL", `node -e "const c=new (require('pg').Client)('${env.TEST_DATABASE_URL}');c.connect().then(()=>c.end()).catch(()=>process.exit(1))"`);
service("Redis", `node -e "const R=require('ioredis');const r=new R('${env.TEST_REDIS_URL}',{lazyConnect:true,maxRetriesPerRequest:1});r.connect().then(()=>r.ping()).then(()=>{r.disconnect()}).catch(()=>process.exit(1))"`);

const only = process.argv[2];
if (!only || only === "static") {
  run("npx", ["tsc", "--noEmit"]);
  run("npx", ["eslint", ".", "--max-warnings=0"]);
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
