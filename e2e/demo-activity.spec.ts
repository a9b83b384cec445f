import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { WEB_PROCESS_FLAGS } from "../scripts/node-flags.mjs";
import { signIn } from "./auth.testing";
import { eventually, openKid } from "./dashboard.testing";

// Issue 53 item 9, in the `js` and `no-js` projects: a living demo. The journeys' own server keeps the demo family as
// seeded (e2e/server.ts turns the demo activity off, other journeys count on it), so this one starts a server of its
// own as `npm start` runs it — a fresh database, the demo family, its simulated phones with their demo activity on
// the default schedule — and a newcomer finds something on every page within a minute of its start.

const MINUTE = 60_000;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `npm run serve` on a fresh data directory; resolves with its address once it answers /healthz. */
async function startLivingDemo(): Promise<{ url: string; child: ChildProcess; dataDir: string; output: () => string }> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-e2e-demo-activity-"));
  let out = "";
  // As on a fresh machine: SQLite in the data directory, in-process jobs and device service, whatever this shell has.
  const { DATABASE_URL: _db, REDIS_URL: _redis, DEVICE_SERVICE_URL: _device, ...inherited } = process.env;
  const child = spawn(process.execPath, [...WEB_PROCESS_FLAGS, "--import", "tsx", "server/web.ts"], {
    env: {
      ...inherited,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: url,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      SEED_DEMO: "true",
      SIMULATE_DEMO_DEVICES: "true",
      SIMULATOR_DEMO_ACTIVITY: "true",
      DNS_DOT_PORT: "0", // the web filter's DoT on a free port, with the development certificate
      DNS_DEV_CERT: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const until = Date.now() + 2 * MINUTE;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${out}`);
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, child, dataDir, output: () => out };
    if (Date.now() > until) throw new Error(`the server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("a living demo: within a minute of the start the kid has asked for all three kinds, visited sites and notified", async ({
  browser,
}, info) => {
  test.setTimeout(4 * MINUTE);
  const js = info.project.name === "js";
  const demo = await startLivingDemo();
  // The server answers: its demo phones have connected (`npm start` prints the address now).
  const deadline = Date.now() + MINUTE;
  const context = await browser.newContext({ baseURL: demo.url, javaScriptEnabled: js, timezoneId: "UTC" });
  const page = await context.newPage();
  const remaining = () => Math.max(1_000, deadline - Date.now());
  try {
    await signIn(page);
    const mia = await openKid(page, "Mia");
    const q = new URLSearchParams({ profileId: mia.profileId, serialNumber: mia.serialNumber });

    // Requests: one of each kind waits for the parent, and the side menu counts them.
    await page.goto(`/requests?${q}`);
    const rows = page.getByTestId("request");
    await eventually(
      page,
      js,
      async () => {
        await expect(rows.filter({ hasText: "App Installation Request" })).toHaveCount(1, { timeout: 1_000 });
        await expect(rows.filter({ hasText: "App Uninstallation Request" })).toHaveCount(1, { timeout: 1_000 });
        await expect(rows.filter({ hasText: /App Time Extend Request - (15|30) Minutes/ })).toHaveCount(1, { timeout: 1_000 });
      },
      remaining(),
    );
    await page.reload();
    await expect(rows).toHaveCount(3);
    await expect(page.getByTestId("request-count")).toHaveText("3");
    await expect(rows.filter({ hasText: "App Installation Request" }).getByRole("link", { name: /^Install / })).toBeVisible();

    // Browser logs: the sites the kid opened today.
    await page.goto(`/browser-logs?${q}`);
    const sites = page.getByRole("list", { name: "Web addresses" }).getByRole("link", { name: "www.bbc.co.uk/cbbc", exact: true });
    await eventually(page, js, () => expect(sites).toBeVisible({ timeout: 1_000 }), remaining());

    // The notification center: the phone's own notifications beside the requests'.
    await page.goto(`/kids-device?${new URLSearchParams({ profileId: mia.profileId, modal: "notifications" })}`);
    const notes = page.getByTestId("notifications");
    await eventually(page, js, () => expect(notes).toContainText(/Mia opened /, { timeout: 1_000 }), remaining());
    await expect(notes).toContainText("Mia asked to install");
    expect(Date.now(), "all of it within a minute of the start").toBeLessThanOrEqual(deadline);
  } catch (err) {
    await info.attach("server output", { body: demo.output(), contentType: "text/plain" });
    throw err;
  } finally {
    await context.close();
    demo.child.kill("SIGTERM");
    await new Promise((resolve) => (demo.child.exitCode !== null ? resolve(null) : demo.child.once("exit", resolve)));
    rmSync(demo.dataDir, { recursive: true, force: true });
  }
});
