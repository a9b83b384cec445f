import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../db/queries/sessions";
import { findParentByEmail } from "../db/queries/parents";

// The real server on an ephemeral port, with a fresh SQLite database (needs `remix build` first; npm test does it).
process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "kids-portal-server-test-"));
process.env.NODE_ENV = "production";
process.env.PUBLIC_URL = "http://portal.test"; // required in production; tests connect to started.url
process.env.LOG_LEVEL = "error";
process.env.SIMULATE_DEMO_DEVICES = "false";

const { startServer } = await import("./web");
let started: Awaited<ReturnType<typeof startServer>>;
let base: string;

beforeAll(async () => {
  started = await startServer({ port: 0, quiet: true });
  base = started.url;
});
afterAll(async () => {
  await started?.close();
});

describe("server", () => {
  it("answers /healthz and serves /login with security headers", async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ ok: true });
    const res = await fetch(`${base}/login`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(html).toContain(`nonce="${nonce}"`);
  });

  it("puts the security headers on static files too", async () => {
    const res = await fetch(`${base}/favicon.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("object-src 'none'");
  });

  it("sends a signed-out visitor of a guarded page to /login", async () => {
    const res = await fetch(`${base}/kids-device?profileId=x`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fkids-device%3FprofileId%3Dx");
  });

  it("accepts Authorization: Bearer for the mobile wrapper, and refuses a revoked or unknown token", async () => {
    const parent = (await findParentByEmail(started.services.db, "demo@kids-portal.test"))!;
    const token = await createSession(started.services.db, parent.id, { idleMinutes: 60, absoluteDays: 1 });
    const ok = await fetch(`${base}/kids-device`, { headers: { Authorization: `Bearer ${token}` }, redirect: "manual" });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("Mia");
    const bad = await fetch(`${base}/kids-device`, { headers: { Authorization: "Bearer nope" }, redirect: "manual" });
    expect(bad.status).toBe(302);
  });

  it("guarded pages and their data answer Cache-Control: no-store; public pages private, no-cache", async () => {
    const parent = (await findParentByEmail(started.services.db, "demo@kids-portal.test"))!;
    const token = await createSession(started.services.db, parent.id, { idleMinutes: 60, absoluteDays: 1 });
    const headers = { Authorization: `Bearer ${token}` };
    for (const path of ["/kids-device", "/change-password", "/contact", "/kids-device.data"]) {
      const res = await fetch(`${base}${path}`, { headers, redirect: "manual" });
      expect([path, res.status, res.headers.get("cache-control")]).toEqual([path, 200, "no-store"]);
    }
    const login = await fetch(`${base}/login`);
    expect(login.headers.get("cache-control")).toBe("private, no-cache");
  });

  // Issue 52 finding 11: a page opened from a link in mail carries the link's secret in its address (docs/accounts.md).
  it("e-mail-link pages answer Referrer-Policy: no-referrer, and only that", async () => {
    for (const path of [
      "/reset-password?iv=x&encryptedData=y",
      "/password/set?iv=x&encryptedData=y",
      "/login?iv=x&encryptedData=y",
      "/login?token=t",
      "/reports/unsubscribe?parent=p&sig=s",
      "/alerts/unsubscribe?parent=p&sig=s",
      "/users/handoff?to=%2Fkids-device",
    ]) {
      const res = await fetch(`${base}${path}`, { redirect: "manual" });
      expect([path, res.headers.get("referrer-policy")]).toEqual([path, "no-referrer"]);
    }
    expect((await fetch(`${base}/login?redirectTo=%2Faccount`)).headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("refuses a cross-site form post", async () => {
    const res = await fetch(`${base}/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=demo%40kids-portal.test&password=demo-parent-2026",
      redirect: "manual",
    });
    expect(res.status).toBe(403);
  });

  it("destroys WebSocket upgrades on unknown paths", async () => {
    const { port } = new URL(base);
    const closed = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(
          "GET /not-a-socket HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
        );
      });
      let data = "";
      socket.on("data", (d) => (data += d.toString()));
      socket.on("close", () => resolve(data));
    });
    expect(closed).toBe(""); // closed without an HTTP answer
  });
});

describe("process", () => {
  it("shuts down gracefully on SIGTERM", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-sigterm-"));
    const child = spawn(process.execPath, ["--import", "tsx", "server/web.ts"], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: "0", NODE_ENV: "production", SIMULATE_DEMO_DEVICES: "false", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d.toString()));
    child.stderr.on("data", (d) => (out += d.toString()));
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
      child.once("exit", (code) => reject(new Error(`server exited (${code}) before starting:\n${out}`)));
      const check = setInterval(() => {
        if (out.includes("is running at")) {
          clearInterval(check);
          clearTimeout(t);
          resolve();
        }
      }, 50);
    });
    const started = Date.now();
    child.kill("SIGTERM");
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    expect(exit, out).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(out).toContain("shutting down");
  }, 40_000);
});
