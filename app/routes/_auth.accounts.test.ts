import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "#db/index.testing";
import { parseEnv } from "#core/env.server";
import { HONEYPOT_MESSAGE } from "~/utils/honeypot";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { action as forgotAction, FORGOT_SENT_MESSAGE } from "./_auth.forget-password";
import { action as loginAction, INVALID_EMAIL_BANNER } from "./_auth.login";
import { action as registrationAction } from "./_auth.registration";
import { action as resetAction } from "./_auth.reset-password";
import { action as otpAction } from "./_auth.verify-otp";

// Route actions through their real code paths, on SQLite: the clear messages of the abuse limits.
describe("public form abuse limits", () => {
  let t: TestDb;
  let context: AppLoadContext;
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: "/tmp/kids-portal-accounts-test", SESSION_SECRET: "x".repeat(40) });
    context = { services: { env, db: t.db, log: () => {} }, cspNonce: "n" } as unknown as AppLoadContext;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const post = (path: string, ip: string, fields: Record<string, string>) =>
    new Request(`http://localhost${path}`, { method: "POST", body: new URLSearchParams(fields), headers: { "x-kp-client-ip": ip } });

  it("login: the 11th attempt in a minute from one IP is refused with a clear message", async () => {
    // The limit counts per clock minute: start the attempts at the top of one, so eleven slow (Argon2) attempts on a
    // busy machine cannot straddle two windows. Only Date is faked; timers and I/O run as usual.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-27T12:00:00.000Z") });
    try {
      await elevenAttempts();
    } finally {
      vi.useRealTimers();
    }
  });

  async function elevenAttempts() {
    for (let i = 0; i < 10; i++) {
      const res = (await loginAction({
        request: post("/login", "9.9.9.9", { email: "no@example.com", password: "wrong-password" }),
        context,
        params: {},
      })) as Response;
      expect(res.status).toBe(400);
    }
    const res = (await loginAction({
      request: post("/login", "9.9.9.9", { email: "no@example.com", password: "wrong-password" }),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(429);
    expect(JSON.stringify(await res.json())).toContain(RATE_LIMIT_MESSAGE);
  }

  it("login: an unknown email gets the spec's banner word for word; a known one with a wrong password does not", async () => {
    expect(INVALID_EMAIL_BANNER).toBe(
      "We couldn't find this email in our system. If you haven't purchased a device yet, click here to buy one from our website.",
    );
    const unknown = (await loginAction({
      request: post("/login", "6.6.6.1", { email: "nobody-here@example.com", password: "some-password" }),
      context,
      params: {},
    })) as Response;
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { "": [INVALID_EMAIL_BANNER] } });
  });

  it("sign-up signs the new parent in: a session cookie and the dashboard, with the verification mail sent", async () => {
    const res = (await registrationAction({
      request: post("/registration", "6.6.6.2", { parentName: "Pat New", email: "pat-new@example.com", password: "pat-new-passphrase" }),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/kids-device");
    expect(res.headers.get("Set-Cookie")).toMatch(/kp_session=[^;]+/);
    const known = (await loginAction({
      request: post("/login", "6.6.6.3", { email: "pat-new@example.com", password: "wrong-password" }),
      context,
      params: {},
    })) as Response;
    expect(JSON.stringify(await known.json())).toContain("Invalid email or password.");
  });

  it("sign-up keeps the browser's time zone when Intl knows it, else the default (UTC)", async () => {
    const zoneOf = async (email: string) =>
      (await t.db.selectFrom("parents").select("time_zone").where("email", "=", email).executeTakeFirstOrThrow()).time_zone;
    const signUp = (email: string, timeZone: string) =>
      registrationAction({
        request: post("/registration", "6.6.6.4", { parentName: "Zed", email, password: "zed-zone-passphrase", timeZone }),
        context,
        params: {},
      });
    expect(((await signUp("zed-la@example.com", "America/Los_Angeles")) as Response).status).toBe(302);
    expect(await zoneOf("zed-la@example.com")).toBe("America/Los_Angeles");
    await signUp("zed-mars@example.com", "Mars/Olympus_Mons");
    expect(await zoneOf("zed-mars@example.com")).toBe("UTC");
    await signUp("zed-nojs@example.com", "");
    expect(await zoneOf("zed-nojs@example.com")).toBe("UTC");
  });

  it("login: a filled honeypot is refused", async () => {
    const res = (await loginAction({
      request: post("/login", "8.8.8.8", { email: "a@example.com", password: "x", website: "spam" }),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain(HONEYPOT_MESSAGE);
  });

  it("forgot password: the same answer for an unknown email", async () => {
    const res = (await forgotAction({
      request: post("/forget-password", "7.7.7.7", { email: "nobody@example.com" }),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ sent: true });
    expect(FORGOT_SENT_MESSAGE).toContain("If this email is registered with us");
  });

  // Every public form: ten attempts a minute from one address, then the clear message (HTTP 429).
  it.each([
    ["registration", "/registration", registrationAction, { parentName: "P", email: "p@example.com", password: "x" }],
    ["two-step code", "/verify-otp?email=p%40example.com", otpAction, { otp: "1234" }],
    ["forgot password", "/forget-password", forgotAction, { email: "p@example.com" }],
    [
      "reset password",
      "/reset-password?iv=x&encryptedData=y",
      resetAction,
      { password: "new-passphrase", confirm_password: "new-passphrase" },
    ],
  ] as const)("%s: the 11th attempt in a minute from one IP is refused", async (_name, path, action, fields) => {
    const ip = `10.0.0.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 10; i++) {
      const res = (await action({ request: post(path, ip, fields), context, params: {} })) as Response;
      expect(res.status).not.toBe(429);
    }
    const res = (await action({ request: post(path, ip, fields), context, params: {} })) as Response;
    expect(res.status).toBe(429);
    expect(JSON.stringify(await res.json())).toContain(RATE_LIMIT_MESSAGE);
    // Another address is not affected.
    const other = (await action({ request: post(path, "10.9.9.9", fields), context, params: {} })) as Response;
    expect(other.status).not.toBe(429);
  });
});
