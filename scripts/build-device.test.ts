import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleEntry } from "./build-device.mjs";

const out = `build/test-device-${process.pid}`;
afterAll(() => rmSync(out, { recursive: true, force: true }));

/**
 * The device service as plain JavaScript (scripts/build-device.mjs; issue 22: a restart from the bundle starts in
 * a fraction of the time under tsx). Built into a directory of its own, it starts with plain `node`, answers its
 * health check and an enrollment, and keeps the report charts (nivo, react-dom) in a chunk of their own, loaded on
 * first use.
 */
describe("the device service bundle", () => {
  it("starts with plain node and answers /healthz; the charts stay a separate chunk", { timeout: 60_000 }, async () => {
    const file = await bundleEntry("server/device.ts", out);
    expect(readdirSync(out).some((f) => /^charts-.*\.js$/.test(f))).toBe(true);
    // PORT=0: the system picks a free port and the service prints it (a random pick in 20,000–40,000 once met a
    // port already in use: that range overlaps the ephemeral ports other tests' connections take).
    const proc = spawn(process.execPath, [file], {
      env: {
        ...process.env,
        NODE_ENV: "production",
        PORT: "0",
        HOST: "127.0.0.1",
        DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "bundle-")),
        DATABASE_URL: "",
        REDIS_URL: "",
        DEVICE_PROCESSES: "1",
        SESSION_SECRET: "bundle-test-secret-bundle-test-secret-0123",
        PUBLIC_URL: "http://localhost",
        LOG_LEVEL: "error",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const listening = await new Promise<string>((resolve, reject) => {
        let text = "";
        proc.stdout!.on("data", (d: Buffer) => {
          text += d.toString();
          if (text.includes("listening on")) resolve(text);
        });
        proc.once("exit", (code) => reject(new Error(`the bundle exited (${code}) before listening: ${text}`)));
      });
      const port = Number(/device service listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(listening)?.[1]);
      expect(port).toBeGreaterThan(0);
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, sockets: 0 });
      // The packages are in the bundle (Express's body parser, zod, Kysely on better-sqlite3 left outside it): an
      // enrollment with an unknown code is read, checked and refused, as from the sources.
      const enroll = await fetch(`http://127.0.0.1:${port}/device-api/enroll`, {
        method: "POST",
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify({
          token: "no-such-code",
          hardware: { serialNumber: "BUNDLE-1", brand: "Pixel", model: "7", osVersion: "14", appVersion: "3.8.1" },
        }),
      });
      expect([400, 401]).toContain(enroll.status);
      expect(((await enroll.json()) as { respones_msg: string }).respones_msg).toMatch(/\S/);
    } finally {
      proc.kill("SIGTERM");
    }
  });
});
