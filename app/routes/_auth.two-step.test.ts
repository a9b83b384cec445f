import type { AppLoadContext } from "@remix-run/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTwoStep } from "#db/queries/accounts";
import { createParent } from "#db/queries/parents";
import { OTP_MAILS_PER_HOUR, OTP_MESSAGES } from "#db/queries/otp";
import { ACCOUNT_LOCK_MESSAGE } from "#db/queries/rate-limits";
import { createTestDb, type TestDb } from "#db/index.testing";
import { parseEnv } from "#core/env.server";
import { hashPassword } from "#core/password.server";
import { action as loginAction } from "./_auth.login";
import { action as otpAction, loader as otpLoader } from "./_auth.verify-otp";

// The cookies (two-step step, device cookie) are signed with the process's SESSION_SECRET (env()); the codes with the
// context's. One secret for both, as on a server.
const SECRET = "2".repeat(40);
process.env.SESSION_SECRET = SECRET;
process.env.DATA_DIR ??= "/tmp/kids-portal-two-step-test";

/**
 * Issue 52 finding 3, through the real route actions on SQLite: two-step codes are limited per account across
 * sign-ins (wrong codes, mails), and the account's limits are per allowance (OWASP device cookies), so a stranger's
 * failures never lock the parent's known browser out.
 */
describe("two-step and account limits across sign-ins", () => {
  let t: TestDb;
  const envOf = (failures = 100) =>
    parseEnv({
      NODE_ENV: "test",
      DATA_DIR: process.env.DATA_DIR,
      SESSION_SECRET: SECRET,
      RATE_LIMIT_IP_PER_MINUTE: "10000",
      RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: String(failures),
    });
  let env = envOf();
  beforeAll(async () => {
    t = await createTestDb("sqlite");
  });
  afterAll(async () => {
    await t?.destroy();
  });

  const context = () => ({ services: { env, db: t.db, log: () => {} }, cspNonce: "n" }) as unknown as AppLoadContext;
  /** The cookies a response sets, as a Cookie header (name=value; …), merged over `jar`. */
  const cookiesOf = (res: Response, jar = "") => {
    const map = new Map(jar ? jar.split("; ").map((c) => c.split("=", 2) as [string, string]) : []);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair!.indexOf("=");
      map.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    return [...map].map(([k, v]) => `${k}=${v}`).join("; ");
  };
  const login = async (email: string, password: string, cookie = "") =>
    (await loginAction({
      request: new Request("http://localhost/login", {
        method: "POST",
        body: new URLSearchParams({ email, password }),
        headers: { "x-kp-client-ip": "7.7.7.7", ...(cookie ? { Cookie: cookie } : {}) },
      }),
      context: context(),
      params: {},
    })) as Response;
  const verifyUrl = (email: string) => `http://localhost/verify-otp?email=${encodeURIComponent(email)}`;
  const enter = async (email: string, otp: string, cookie: string) => {
    const res = (await otpAction({
      request: new Request(verifyUrl(email), {
        method: "POST",
        body: new URLSearchParams({ otp }),
        headers: { "x-kp-client-ip": "7.7.7.7", Cookie: cookie },
      }),
      context: context(),
      params: {},
    })) as Response;
    return { res, text: res.status === 302 ? "" : JSON.stringify(await res.clone().json()) };
  };
  const page = async (email: string, cookie: string) =>
    (await (
      (await otpLoader({
        request: new Request(verifyUrl(email), { headers: { Cookie: cookie } }),
        context: context(),
        params: {},
      })) as Response
    ).json()) as { expired: boolean; locked: boolean; notMailed: boolean };
  const mails = async (email: string) =>
    (await t.db.selectFrom("mail_outbox").select("text_body").where("to_address", "=", email).orderBy("created_at").execute()).map(
      (m) => /sign-in code is: (\d{4})/.exec(m.text_body)![1]!,
    );
  const other = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, "0");
  let n = 0;
  const parentWithTwoStep = async () => {
    const email = `two-step-${++n}@example.com`;
    const parent = await createParent(t.db, { email, name: "Two", passwordHash: await hashPassword("right-passphrase-1") });
    await setTwoStep(t.db, parent.id, true);
    return email;
  };
  /** A browser that signs in fully (password and code): its cookies, the device cookie among them. */
  const knownBrowser = async (email: string) => {
    const first = await login(email, "right-passphrase-1");
    const jar = cookiesOf(first);
    const done = await enter(email, (await mails(email)).at(-1)!, jar);
    expect(done.res.headers.get("Location")).toMatch(/^\/users\/handoff/);
    return cookiesOf(done.res, jar);
  };

  it("wrong codes count across sign-ins: a new sign-in (a new code) does not bring new tries", async () => {
    const email = await parentWithTwoStep();
    // A stranger who has the password, on a browser the account does not know.
    const first = cookiesOf(await login(email, "right-passphrase-1"));
    const code1 = (await mails(email)).at(-1)!;
    for (let i = 1; i <= 4; i++) expect((await enter(email, other(code1), first)).text).toContain(OTP_MESSAGES.wrong(5 - i));
    expect((await enter(email, other(code1), first)).text).toContain(OTP_MESSAGES.voided);

    const second = cookiesOf(await login(email, "right-passphrase-1"));
    const code2 = (await mails(email)).at(-1)!;
    for (let i = 1; i <= 4; i++) expect((await enter(email, other(code2), second)).text).toContain(OTP_MESSAGES.wrong(5 - i));
    // The tenth wrong code in the hour: the account's allowance (for unknown browsers) is spent.
    const tenth = await enter(email, other(code2), second);
    expect(tenth.res.status).toBe(400);
    expect(tenth.text).toContain(OTP_MESSAGES.locked);

    // A third sign-in mails nothing and checks nothing: the page says why.
    const before = (await mails(email)).length;
    const third = cookiesOf(await login(email, "right-passphrase-1"));
    expect(await mails(email)).toHaveLength(before);
    expect(await page(email, third)).toMatchObject({ expired: false, locked: true });
    for (const code of [code2, other(code2)]) expect((await enter(email, code, third)).text).toContain(OTP_MESSAGES.locked);
  });

  it("a browser that signed in before keeps its own allowance: the stranger's wrong codes do not lock it out", async () => {
    const email = await parentWithTwoStep();
    const parentsBrowser = await knownBrowser(email);
    for (let round = 0; round < 2; round++) {
      const stranger = cookiesOf(await login(email, "right-passphrase-1"));
      const code = (await mails(email)).at(-1)!;
      for (let i = 0; i < 5; i++) await enter(email, other(code), stranger);
    }
    expect((await enter(email, "0000", cookiesOf(await login(email, "right-passphrase-1")))).text).toContain(OTP_MESSAGES.locked);

    // The parent's browser: a code is mailed, and it signs in.
    const before = (await mails(email)).length;
    const jar = cookiesOf(await login(email, "right-passphrase-1", parentsBrowser), parentsBrowser);
    expect(await mails(email)).toHaveLength(before + 1);
    expect(await page(email, jar)).toMatchObject({ locked: false, notMailed: false });
    const done = await enter(email, (await mails(email)).at(-1)!, jar);
    expect(done.res.status).toBe(302);
    expect(done.res.headers.get("Location")).toMatch(/^\/users\/handoff/);
    // What made the difference: the device cookie its first full sign-in gave it.
    expect(parentsBrowser).toMatch(/kp_device=/);
  });

  it(`codes are mailed at most ${OTP_MAILS_PER_HOUR} times an hour; then the latest code still works`, async () => {
    const email = await parentWithTwoStep();
    let jar = "";
    for (let i = 0; i < OTP_MAILS_PER_HOUR; i++) jar = cookiesOf(await login(email, "right-passphrase-1"), jar);
    expect(await mails(email)).toHaveLength(OTP_MAILS_PER_HOUR);

    jar = cookiesOf(await login(email, "right-passphrase-1"), jar);
    expect(await mails(email)).toHaveLength(OTP_MAILS_PER_HOUR);
    expect(await page(email, jar)).toMatchObject({ expired: false, locked: false, notMailed: true });
    expect(OTP_MESSAGES.notMailed).toBe(
      "We have already emailed you 5 codes this hour, so we did not send another. Enter the latest code we sent you, or sign in again in an hour.",
    );
    const done = await enter(email, (await mails(email)).at(-1)!, jar);
    expect(done.res.headers.get("Location")).toMatch(/^\/users\/handoff/);
  });

  it("a stranger's failed passwords lock out strangers only: the parent's known browser still signs in", async () => {
    env = envOf(3);
    try {
      const email = `lockout-${++n}@example.com`;
      await createParent(t.db, { email, name: "Lock", passwordHash: await hashPassword("right-passphrase-1") });
      const signedIn = await login(email, "right-passphrase-1");
      expect(signedIn.headers.get("Location")).toMatch(/^\/users\/handoff/);
      const parentsBrowser = cookiesOf(signedIn);

      for (let i = 0; i < 3; i++) expect((await login(email, "guess-number-" + i)).status).toBe(400);
      const stranger = await login(email, "right-passphrase-1");
      expect(stranger.status).toBe(429);
      expect(JSON.stringify(await stranger.json())).toContain(ACCOUNT_LOCK_MESSAGE);
      // A device cookie changed by hand is no device cookie: an unknown browser, locked out too.
      const forged = parentsBrowser.replace(/kp_device=([^;]+)/, (_m, v: string) => `kp_device=${v.slice(0, -2)}AA`);
      expect((await login(email, "right-passphrase-1", forged)).status).toBe(429);

      const parent = await login(email, "right-passphrase-1", parentsBrowser);
      expect(parent.status).toBe(302);
      expect(parent.headers.get("Location")).toMatch(/^\/users\/handoff/);
      expect(parentsBrowser).toMatch(/kp_device=/);

      // That browser's own failures count on its own allowance, and lock it alone.
      for (let i = 0; i < 3; i++) expect((await login(email, "typo-number-" + i, parentsBrowser)).status).toBe(400);
      expect((await login(email, "right-passphrase-1", parentsBrowser)).status).toBe(429);
    } finally {
      env = envOf();
    }
  });
});
