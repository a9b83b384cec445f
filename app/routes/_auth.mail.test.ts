import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setTwoStep } from "#db/queries/accounts";
import { createParent } from "#db/queries/parents";
import { createTestDb, type TestDb } from "#db/index.testing";
import { parseEnv, publicOrigin, type Env } from "#core/env.server";
import { createLogger } from "#core/log";
import { hashPassword } from "#core/password.server";
import { action as forgotAction } from "./_auth.forget-password";
import { action as loginAction } from "./_auth.login";
import { action as registrationAction } from "./_auth.registration";
import { loader as appleLoader } from "./users.auth.apple";
import { loader as googleLoader } from "./users.auth.google";

process.env.DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "kids-portal-mail-test-"));

// Links that leave the server (mail, OAuth callbacks) come from PUBLIC_URL only, never from the request's
// Host header; and the log never carries a mail's body, link or code.
const FORGED = { Host: "attacker.example", "X-Forwarded-Host": "attacker.example", "X-Forwarded-Proto": "https" };

let t: TestDb;
let lines: string[] = [];
const waiters: { to: string; resolve: () => void }[] = [];

function contextFor(env: Env): AppLoadContext {
  const real = createLogger("debug");
  // The real logger (its console output is captured below), plus a signal when a mail has been handled.
  const log: typeof real = (level, msg, extra) => {
    real(level, msg, extra);
    for (const w of waiters.filter((w) => msg.startsWith("mail") && extra?.to === w.to)) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  };
  return { services: { env, db: t.db, log }, cspNonce: "n" } as unknown as AppLoadContext;
}

const mailHandled = (to: string) => new Promise<void>((resolve) => waiters.push({ to, resolve }));

async function lastMailTo(to: string) {
  return t.db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("to_address", "=", to)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
}

const post = (url: string, fields: Record<string, string>, ip: string) =>
  new Request(url, { method: "POST", body: new URLSearchParams(fields), headers: { ...FORGED, "x-kp-client-ip": ip } });

const baseEnv = { NODE_ENV: "test", SESSION_SECRET: "m".repeat(40), PORT: "4321", DATA_DIR: process.env.DATA_DIR };

beforeAll(async () => {
  t = await createTestDb("sqlite");
  const capture = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  vi.spyOn(console, "log").mockImplementation(capture);
  vi.spyOn(console, "error").mockImplementation(capture);
  vi.spyOn(console, "warn").mockImplementation(capture);
});
afterEach(() => {
  lines = [];
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.destroy();
});

describe("links in mail come from PUBLIC_URL, never from the Host header", () => {
  it.each([
    ["PUBLIC_URL unset (dev/test: http://localhost:PORT)", {}, "http://localhost:4321"],
    ["PUBLIC_URL set", { PUBLIC_URL: "https://portal.example/" }, "https://portal.example"],
  ])("forgot password with a forged Host: %s", async (_name, extra, origin) => {
    const context = contextFor(parseEnv({ ...baseEnv, ...extra }));
    const email = `forgot-${Math.random().toString(36).slice(2)}@example.com`;
    await createParent(t.db, { email, name: "Forgot", passwordHash: await hashPassword("old-passphrase-1") });
    const handled = mailHandled(email);
    const res = (await forgotAction({
      request: post("http://attacker.example/forget-password", { email }, "1.1.1.1"),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(200);
    await handled;
    const mail = await lastMailTo(email);
    expect(mail.text_body).toContain(`${origin}/reset-password?iv=`);
    expect(mail.text_body).not.toContain("attacker");
  });

  it("sign-up with a forged Host: the verification link points at the portal", async () => {
    const context = contextFor(parseEnv(baseEnv));
    const email = `signup-${Math.random().toString(36).slice(2)}@example.com`;
    const res = (await registrationAction({
      request: post("http://attacker.example/registration", { parentName: "New", email, password: "a-good-passphrase-9" }, "1.1.1.2"),
      context,
      params: {},
    })) as Response;
    expect(res.status).toBe(302);
    const mail = await lastMailTo(email);
    expect(mail.text_body).toContain("http://localhost:4321/login?iv=");
    expect(mail.text_body).not.toContain("attacker");
  });

  it("publicOrigin: PUBLIC_URL's origin, else http://localhost:PORT", () => {
    expect(publicOrigin(parseEnv(baseEnv))).toBe("http://localhost:4321");
    expect(publicOrigin(parseEnv({ ...baseEnv, PUBLIC_URL: "https://portal.example/some/path" }))).toBe("https://portal.example");
  });

  it("production refuses to start without PUBLIC_URL, with a clear message", () => {
    expect(() => parseEnv({ ...baseEnv, NODE_ENV: "production" })).toThrow(/PUBLIC_URL: required when NODE_ENV=production/);
    expect(parseEnv({ ...baseEnv, NODE_ENV: "production", PUBLIC_URL: "https://portal.example" }).PUBLIC_URL).toBe(
      "https://portal.example",
    );
    expect(() => parseEnv({ ...baseEnv, PUBLIC_URL: "javascript:alert(1)" })).toThrow(/PUBLIC_URL/);
  });
});

describe("OAuth callbacks come from PUBLIC_URL, never from the Host header", () => {
  const provider = new OAuth2Server();
  let issuer: string;
  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    issuer = provider.issuer.url!;
  });
  afterAll(async () => {
    await provider.stop();
  });

  it.each([
    ["Google", googleLoader, "/users/auth/google", "http://localhost:4321/users/auth/google/callback"],
    ["Apple", appleLoader, "/users/auth/apple", "http://localhost:4321/users/apple-callback"],
  ])("%s: the redirect_uri ignores a forged Host", async (_name, loader, pathname, callback) => {
    const env = parseEnv({ ...baseEnv, GOOGLE_CLIENT_ID: "g", GOOGLE_ISSUER: issuer, APPLE_CLIENT_ID: "a", APPLE_ISSUER: issuer });
    const request = new Request(`http://attacker.example${pathname}`, { headers: FORGED });
    const thrown = await loader({ request, context: contextFor(env), params: {} }).then(
      () => null,
      (r: unknown) => r,
    );
    expect(thrown).toBeInstanceOf(Response);
    const location = new URL((thrown as Response).headers.get("Location")!);
    expect(location.searchParams.get("redirect_uri")).toBe(callback);
  });
});

describe("no secrets in logs", () => {
  it.each([
    ["development", {}],
    ["production", { NODE_ENV: "production", PUBLIC_URL: "https://portal.example" }],
  ])("%s without SMTP_URL: sign-up, reset and a two-step sign-in log recipient and subject only", async (_name, extra) => {
    const env = parseEnv({ ...baseEnv, ...extra });
    const context = contextFor(env);
    const email = `logs-${Math.random().toString(36).slice(2)}@example.com`;
    const before = await t.db
      .selectFrom("mail_outbox")
      .select(({ fn }) => fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();

    await registrationAction({
      request: post("http://localhost/registration", { parentName: "Logs", email, password: "logs-passphrase-1" }, "2.2.2.1"),
      context,
      params: {},
    });
    const handled = mailHandled(email);
    await forgotAction({ request: post("http://localhost/forget-password", { email }, "2.2.2.2"), context, params: {} });
    await handled;
    const parent = await t.db.selectFrom("parents").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await setTwoStep(t.db, parent.id, true);
    const signIn = (await loginAction({
      request: post("http://localhost/login", { email, password: "logs-passphrase-1" }, "2.2.2.3"),
      context,
      params: {},
    })) as Response;
    expect(signIn.headers.get("Location")).toMatch(/^\/verify-otp/);

    const log = lines.join("\n");
    for (const subject of ["Verify your email address", "Reset your password", "Your sign-in code"]) expect(log).toContain(subject);
    expect(log).toContain(email);
    expect(log).not.toMatch(/iv=|encryptedData|https?:\/\/[^"\s]*\/(login|reset-password)/);
    expect(log).not.toMatch(/sign-in code is/);

    const after = await t.db
      .selectFrom("mail_outbox")
      .select(({ fn }) => fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    if (env.NODE_ENV === "production") {
      // The dev mailbox is not served in production: the bodies are not kept either.
      expect(Number(after.n)).toBe(Number(before.n));
    } else {
      // The dev mailbox keeps the whole mail: the code it holds is not in the log.
      const code = /sign-in code is: (\d{4})/.exec((await lastMailTo(email)).text_body)?.[1];
      expect(code).toMatch(/^\d{4}$/);
      expect(log).not.toContain(`"${code}"`);
      expect(log).not.toContain(`: ${code}`);
      expect(Number(after.n)).toBe(Number(before.n) + 3);
    }
  });
});
