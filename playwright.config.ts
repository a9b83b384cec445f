import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3199);
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Every journey runs twice: with JavaScript enabled and disabled. Debian's Chromium, never a download. */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
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
    { name: "no-js", use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: `node --import tsx e2e/server.ts`,
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { E2E_PORT: String(PORT) },
    stdout: "pipe",
    stderr: "pipe",
  },
});
