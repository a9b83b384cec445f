// `npm start`: install when needed, build when needed, then run the server (it migrates, seeds and prints the URL).
//
// Stopping: SIGTERM and SIGINT are passed on to whatever runs at the moment (npm ci, the build, the server);
// the script waits for it to finish its graceful shutdown and exits with its code. `npm start` runs this
// script under npm and a shell; when npm is stopped, the shell dies without passing the signal on, so a
// change of parent (we were re-parented) counts as SIGTERM too. Nothing is ever left running.
import { spawn } from "node:child_process";
import { constants } from "node:os";
import { setInterval, setTimeout } from "node:timers";
import { buildIsStale, dependenciesAreStale } from "./ensure.mjs";
import { WEB_PROCESS_FLAGS } from "./node-flags.mjs";

/** How long a child gets for its graceful shutdown before it is killed (the server needs at most ~5 s). */
const GRACE_MS = 15_000;

let current = null;
let stopping = null;

function exitCode(code, signal) {
  if (code !== null) return code;
  return 128 + (constants.signals[signal] ?? 1);
}

function stop(signal) {
  if (stopping) return;
  stopping = signal;
  if (!current) process.exit(exitCode(null, signal));
  current.kill(signal);
  setTimeout(() => current?.kill("SIGKILL"), GRACE_MS).unref();
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stop(signal));
const parentAtStart = process.ppid;
setInterval(() => {
  if (process.ppid !== parentAtStart) stop("SIGTERM");
}, 250).unref();

/** Runs one step as a child whose exit we wait for; resolves with its exit code. */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: "inherit", ...opts });
    current = child;
    child.on("error", (err) => {
      console.error(`\n✖ ${cmd} could not start: ${err.message}`);
      current = null;
      resolve(1);
    });
    child.on("exit", (code, signal) => {
      current = null;
      resolve(exitCode(code, signal));
    });
  });
}

async function step(cmd, args, opts) {
  const code = await run(cmd, args, opts);
  if (stopping || code !== 0) {
    if (!stopping) console.error(`\n✖ ${cmd} ${args.join(" ")} failed (exit ${code})`);
    process.exit(code);
  }
}

// `--serve-only` (`npm run serve`): the same server, without the install and build checks.
const checks = !process.argv.includes("--serve-only");
if (checks && dependenciesAreStale()) {
  console.log("Installing dependencies (npm ci)…");
  await step("npm", ["ci", "--no-audit", "--no-fund"]);
}
if (checks && buildIsStale()) {
  console.log("Building the web app…");
  await step("npx", ["remix", "build"], { env: { ...process.env, NODE_ENV: "production" } });
}
// Links in mail and sign-in callbacks are built from PUBLIC_URL only: default it to the address the server prints.
// The web filter's DNS-over-TLS: the development port and certificate (a deployment sets DNS_DOT_PORT, DNS_TLS_*).
const PUBLIC_URL = `http://localhost:${process.env.PORT || 3000}`;
const code = await run(process.execPath, [...WEB_PROCESS_FLAGS, "--import", "tsx", "server/web.ts"], {
  env: { NODE_ENV: "production", PUBLIC_URL, DNS_DOT_PORT: "8853", DNS_DEV_CERT: "true", ...process.env },
});
process.exit(code);
