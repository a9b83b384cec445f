import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "@playwright/test";
import { WEB_PROCESS_FLAGS } from "./scripts/node-flags.mjs";

const BASE_PORT = Number(process.env.E2E_PORT ?? 3199);
// Journeys run in E2E_WORKERS workers (default: one per two cores — the journeys are CPU-bound; on 2 cores a second
// worker saved 1.5 of ~16.5 minutes and made single journeys 30 % slower, decision 006), each against a server and demo family of its own on BASE_PORT + its
// parallel index: no journey shares a family's state with one running beside it. In a worker process Playwright sets
// TEST_PARALLEL_INDEX before it reads this file; the helpers read E2E_PORT (phone control, mail peers).
const WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? Math.floor(availableParallelism() / 2)));
const parallelIndex = process.env.TEST_PARALLEL_INDEX;
const PORT = parallelIndex === undefined ? BASE_PORT : BASE_PORT + Number(parallelIndex);
if (parallelIndex !== undefined) process.env.E2E_PORT = String(PORT);
// Debian's headless shell when installed (npm test installs it), else Debian's chromium: decision 006.
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/** Every journey runs twice: with JavaScript enabled and disabled. Debian's Chromium, never a download. */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    launchOptions: { executablePath: chromium, args: ["--no-sandbox"] },
    // The browser's zone is offered at sign-up (JavaScript on): every journey sees the same one, whatever the host's.
    timezoneId: "UTC",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true } },
    // Lighthouse (e2e/lighthouse.spec.ts) drives a browser of its own with JavaScript on: once, in the `js` project.
    { name: "no-js", use: { javaScriptEnabled: false }, testIgnore: "lighthouse.spec.ts" },
  ],
  webServer: Array.from({ length: WORKERS }, (_, i) => ({
    command: `node ${WEB_PROCESS_FLAGS.join(" ")} --import tsx e2e/server.ts`,
    url: `http://localhost:${BASE_PORT + i}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(BASE_PORT + i) },
    stdout: "pipe" as const,
    stderr: "pipe" as const,
  })),
});
