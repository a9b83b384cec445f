import { existsSync, mkdtempSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setTwoStep } from "../db/queries/accounts";
import { createParent } from "../db/queries/parents";
import { parseEnv } from "../core/env.server";
import { hashPassword } from "../core/password.server";
import { OTP_MESSAGES } from "../db/queries/otp";
import { ACCOUNT_LOCK_MESSAGE, RATE_LIMIT_MESSAGE, accountLocked, allowAddress, recordFailedLogin } from "../db/queries/rate-limits";
import { startHarness, TEST_API_KEY, type Harness } from "../server/harness.testing";

// The kids app's parent login is as strong as the web sign-in: the same per-IP and per-account counters and
// messages, two-step verification, and never the built-in dev key in production.
const LOGIN = "/device-api/kids/parent/login";
type Answer = { status: number; body: { respones_msg: string; data?: { otpRequired?: boolean; kidsList?: { profile_name: string }[] } } };

async function kidsLogin(h: Harness, body: Record<string, string>, key = TEST_API_KEY): Promise<Answer> {
  const res = await fetch(`${h.url}${LOGIN}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-api-key": key },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Answer["body"] };
}

// One fixed clock: the per-minute window cannot roll over in the middle of a test.
const NOW = new Date("2031-03-04T05:06:07Z");

describe("kids app parent login: per-IP limit shared with the web sign-in", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ accounts: { RATE_LIMIT_IP_PER_MINUTE: 10, now: () => NOW } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("web attempts and app attempts from one address count together; the 11th is refused with the web's message", async () => {
    const e = { RATE_LIMIT_IP_PER_MINUTE: 10 };
    for (let i = 0; i < 5; i++) expect(await allowAddress(h.tdb.db, e, "127.0.0.1", "login", NOW)).toBe(true);
    for (let i = 0; i < 5; i++) expect((await kidsLogin(h, { email: "no@example.com", password: "wrong-password" })).status).toBe(401);
    const refused = await kidsLogin(h, { email: "demo@kids-portal.test", password: "demo-parent-2026" });
    expect(refused).toEqual({ status: 429, body: { respones_msg: RATE_LIMIT_MESSAGE } });
    // ... and the web sign-in from that address is refused too (the web's allowIp counts on this very counter:
    // app/utils/accounts.test.ts).
    expect(await allowAddress(h.tdb.db, e, "127.0.0.1", "login", NOW)).toBe(false);
  });
});

describe("kids app parent login: account lock and two-step", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ accounts: { RATE_LIMIT_IP_PER_MINUTE: 1000, RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 3, now: () => NOW } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("failed app sign-ins lock the account for the web too; a locked account is refused even with the right password", async () => {
    const email = "lock-app@example.com";
    await createParent(h.tdb.db, { email, name: "Lock", passwordHash: await hashPassword("right-passphrase-1") });
    for (let i = 0; i < 3; i++) expect((await kidsLogin(h, { email, password: "wrong-passphrase" })).status).toBe(401);
    expect(await accountLocked(h.tdb.db, { RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 3 }, email, NOW)).toBe(true);
    expect(await kidsLogin(h, { email, password: "right-passphrase-1" })).toEqual({
      status: 429,
      body: { respones_msg: ACCOUNT_LOCK_MESSAGE },
    });
  });

  it("failed web sign-ins lock the app login", async () => {
    const email = "lock-web@example.com";
    await createParent(h.tdb.db, { email, name: "Lock", passwordHash: await hashPassword("right-passphrase-1") });
    for (let i = 0; i < 3; i++) await recordFailedLogin(h.tdb.db, email, NOW);
    expect(await kidsLogin(h, { email, password: "right-passphrase-1" })).toEqual({
      status: 429,
      body: { respones_msg: ACCOUNT_LOCK_MESSAGE },
    });
  });

  it("two-step: the first call answers that a code is needed and mails it; the second call with the code signs in", async () => {
    const email = "two-step-app@example.com";
    const parent = await createParent(h.tdb.db, { email, name: "Two", passwordHash: await hashPassword("two-step-pass-1") });
    await setTwoStep(h.tdb.db, parent.id, true);

    const first = await kidsLogin(h, { email, password: "two-step-pass-1" });
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ respones_msg: "We emailed you a 4-digit code. Enter it to continue.", data: { otpRequired: true } });
    const mail = await h.tdb.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", email).executeTakeFirstOrThrow();
    const code = /sign-in code is: (\d{4})/.exec(mail.text_body)![1];

    const wrong = await kidsLogin(h, { email, password: "two-step-pass-1", otp: code === "0000" ? "1111" : "0000" });
    expect(wrong).toEqual({
      status: 401,
      body: { respones_msg: "The code is incorrect. You have 4 tries left.", data: { otpRequired: true } },
    });
    // The code is no way around the password.
    expect((await kidsLogin(h, { email, password: "not-the-password", otp: code })).status).toBe(401);

    const ok = await kidsLogin(h, { email, password: "two-step-pass-1", otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body.data?.kidsList).toEqual([]);
    // Used once.
    expect((await kidsLogin(h, { email, password: "two-step-pass-1", otp: code })).status).toBe(401);
  });

  // Issue 52 finding 3: the app is a client without a device cookie; its wrong codes count on the account's
  // allowance for such clients across sign-ins (new codes), as the web's do.
  it("two-step: wrong codes count across the app's sign-ins; at the tenth in the hour no code is checked or mailed", async () => {
    const email = "two-step-limit-app@example.com";
    const parent = await createParent(h.tdb.db, { email, name: "Ten", passwordHash: await hashPassword("two-step-pass-2") });
    await setTwoStep(h.tdb.db, parent.id, true);
    const codes = async () =>
      (await h.tdb.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", email).orderBy("created_at").execute()).map(
        (m) => /sign-in code is: (\d{4})/.exec(m.text_body)![1]!,
      );
    const wrong = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, "0");
    let last: Answer | undefined;
    for (let round = 0; round < 2; round++) {
      expect((await kidsLogin(h, { email, password: "two-step-pass-2" })).body.data).toEqual({ otpRequired: true });
      const code = (await codes()).at(-1)!;
      for (let i = 0; i < 5; i++) last = await kidsLogin(h, { email, password: "two-step-pass-2", otp: wrong(code) });
    }
    expect(last).toEqual({ status: 429, body: { respones_msg: OTP_MESSAGES.locked, data: { otpRequired: true } } });
    const mailed = (await codes()).length;
    expect(await kidsLogin(h, { email, password: "two-step-pass-2" })).toEqual({
      status: 429,
      body: { respones_msg: OTP_MESSAGES.locked, data: { otpRequired: true } },
    });
    expect(await codes()).toHaveLength(mailed);
  });

  it("without two-step the code is not asked for", async () => {
    const ok = await kidsLogin(h, { email: "demo@kids-portal.test", password: "demo-parent-2026" });
    expect(ok.status).toBe(200);
    expect(ok.body.data?.kidsList?.map((k) => k.profile_name).sort()).toEqual(["Leo", "Mia"]);
  });
});

describe("kids app API key in production", () => {
  it("the built-in dev-kids-app-key is never used: a random key is generated into DATA_DIR with a warning", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "kids-portal-app-key-"));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const prod = { NODE_ENV: "production", PUBLIC_URL: "https://portal.example", SESSION_SECRET: "p".repeat(40), DATA_DIR: dataDir };
    try {
      const e = parseEnv({ ...prod });
      expect(e.KIDS_APP_API_KEY).not.toBe("dev-kids-app-key");
      expect(e.KIDS_APP_API_KEY).toMatch(/^[0-9a-f]{64}$/);
      const file = path.join(dataDir, ".kids-app-api-key");
      expect(existsSync(file)).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(warn.mock.calls.flat().join("\n")).toMatch(/KIDS_APP_API_KEY is not set/);
      // Stable across restarts, and an explicit dev key is refused the same way.
      expect(parseEnv({ ...prod }).KIDS_APP_API_KEY).toBe(e.KIDS_APP_API_KEY);
      expect(parseEnv({ ...prod, KIDS_APP_API_KEY: "dev-kids-app-key" }).KIDS_APP_API_KEY).toBe(e.KIDS_APP_API_KEY);
      expect(parseEnv({ ...prod, KIDS_APP_API_KEY: "a-real-key-from-the-app-build" }).KIDS_APP_API_KEY).toBe(
        "a-real-key-from-the-app-build",
      );
      // Development keeps the documented dev key.
      expect(parseEnv({ NODE_ENV: "development", DATA_DIR: dataDir, SESSION_SECRET: "p".repeat(40) }).KIDS_APP_API_KEY).toBe(
        "dev-kids-app-key",
      );

      const h = await startHarness({ kidsAppApiKey: e.KIDS_APP_API_KEY });
      try {
        const refused = await kidsLogin(h, { email: "demo@kids-portal.test", password: "demo-parent-2026" }, "dev-kids-app-key");
        expect(refused.status).toBe(401);
        expect((await kidsLogin(h, { email: "demo@kids-portal.test", password: "demo-parent-2026" }, e.KIDS_APP_API_KEY)).status).toBe(200);
      } finally {
        await h.close();
      }
    } finally {
      warn.mockRestore();
    }
  }, 60_000);
});
