import { SignJWT, generateKeyPair } from "jose";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParent } from "#db/queries/parents";
import { createTestDb, DIALECTS, type TestDb } from "#db/index.testing";
import { LINK_MESSAGES, linkUrl, newLink, openLink, redeemLink, sealLink } from "./links.server";
import { issueOtp, otpLocked, startOtp, verifyOtp } from "#db/queries/otp";
import { IdTokenError, appleEnabled, verifyIdToken, type ProviderEnv } from "./oauth.server";
import { accountLocked, allowAddress, recordFailedLogin } from "#db/queries/rate-limits";
import { allowIp } from "./rate-limit.server";
import { handoffPage, scriptJson } from "./wrapper";

const SECRET = "s".repeat(40);

describe("email links (AES-256-GCM iv + encryptedData)", () => {
  it("round-trips user, purpose and expiry", () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const link = newLink(SECRET, { parentId: "p1", purpose: "reset-password", passwordHash: "h" }, now);
    const opened = openLink(SECRET, link.iv, link.encryptedData, "reset-password", now);
    expect(opened).toMatchObject({ ok: true, payload: { sub: "p1", purpose: "reset-password" } });
    expect(link.payload.exp - now.getTime()).toBeLessThanOrEqual(60 * 60_000); // reset ≤ 1 hour
    expect(linkUrl("https://x.test", "/reset-password", link)).toMatch(
      /^https:\/\/x\.test\/reset-password\?iv=[\w-]+&encryptedData=[\w-]+$/,
    );
  });

  it("refuses expired links", () => {
    const now = new Date("2026-11-21T10:00:00Z");
    const link = newLink(SECRET, { parentId: "p1", purpose: "reset-password" }, now);
    expect(openLink(SECRET, link.iv, link.encryptedData, "reset-password", new Date(now.getTime() + 60 * 60_000 + 1))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it.each([
    ["a flipped ciphertext byte", (l: { iv: string; encryptedData: string }) => ({ ...l, encryptedData: flip(l.encryptedData) })],
    ["a flipped iv", (l: { iv: string; encryptedData: string }) => ({ ...l, iv: flip(l.iv) })],
    ["a truncated payload", (l: { iv: string; encryptedData: string }) => ({ ...l, encryptedData: l.encryptedData.slice(0, 10) })],
    ["garbage", () => ({ iv: "x", encryptedData: "y" })],
  ])("refuses a tampered link: %s", (_name, tamper) => {
    const link = newLink(SECRET, { parentId: "p1", purpose: "verify-email" });
    const t = tamper(link);
    expect(openLink(SECRET, t.iv, t.encryptedData, "verify-email")).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a link sealed with another key or made for another purpose", () => {
    const link = newLink("o".repeat(40), { parentId: "p1", purpose: "verify-email" });
    expect(openLink(SECRET, link.iv, link.encryptedData, "verify-email")).toEqual({ ok: false, reason: "invalid" });
    const mine = sealLink(SECRET, { jti: "j", sub: "p1", purpose: "verify-email", exp: Date.now() + 1000 });
    expect(openLink(SECRET, mine.iv, mine.encryptedData, "reset-password")).toEqual({ ok: false, reason: "invalid" });
  });

  it("has clear messages", () => {
    expect(LINK_MESSAGES).toEqual({
      invalid: "This link is invalid. Please request a new one.",
      expired: "This link has expired. Please request a new one.",
      used: "This link has already been used. Please request a new one.",
    });
  });
});

function flip(s: string): string {
  return (s[0] === "A" ? "B" : "A") + s.slice(1);
}

describe("wrapper hand-off page", () => {
  it("escapes the token and target so they cannot close the script", () => {
    expect(scriptJson("</script><script>alert(1)</script>")).not.toContain("</script>");
    const html = handoffPage({ token: "tok", to: "/kids-device?x=1&y=2", nonce: "abc" });
    expect(html).toContain('<script nonce="abc">');
    expect(html).toContain("window.Android");
    expect(html).toContain("messageHandlers");
    expect(html).toContain("ReactNativeWebView");
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="0;url=/kids-device?x=1&amp;y=2"></noscript>');
  });
});

describe("Apple button visibility", () => {
  const e = { APPLE_CLIENT_ID: "id", APPLE_HIDDEN_HOST: "api.kids-portal.example" } as ProviderEnv;
  it.each([
    ["https://portal.example/login", true],
    ["https://api.kids-portal.example/login", false],
    ["https://API.kids-portal.example:443/login", false],
  ])("%s → %s", (url, shown) => {
    expect(appleEnabled(e, new Request(url))).toBe(shown);
  });
  it("is hidden when not configured", () => {
    expect(appleEnabled({ ...e, APPLE_CLIENT_ID: "" }, new Request("https://portal.example/login"))).toBe(false);
  });
});

describe("id_token verification against a real local OIDC provider (oauth2-mock-server)", () => {
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
  const token = (claims: Record<string, unknown>, expiresIn?: number) =>
    provider.issuer.buildToken({
      expiresIn,
      scopesOrTransform: (_h, p) => Object.assign(p, { sub: "u1", aud: "client-1", nonce: "n1", email: "a@b.c", ...claims }),
    });

  it("accepts a good token (signature, issuer, audience, nonce, expiry)", async () => {
    const payload = await verifyIdToken(await token({}), { issuer, audience: "client-1", nonce: "n1" });
    expect(payload.email).toBe("a@b.c");
  });

  it("refuses a forged token (signed by an unpublished key)", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const kid = provider.issuer.keys.toJSON()[0]!.kid;
    const forged = await new SignJWT({ nonce: "n1" })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(issuer)
      .setAudience("client-1")
      .setSubject("u1")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(privateKey);
    await expect(verifyIdToken(forged, { issuer, audience: "client-1", nonce: "n1" })).rejects.toBeInstanceOf(IdTokenError);
  });

  it("refuses an unsigned (alg none) token", async () => {
    const good = await token({});
    const [, body] = good.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${body}.`;
    await expect(verifyIdToken(none, { issuer, audience: "client-1", nonce: "n1" })).rejects.toBeInstanceOf(IdTokenError);
  });

  it.each([
    ["expired", {}, -120, { audience: "client-1", nonce: "n1" }],
    ["wrong audience", { aud: "someone-else" }, undefined, { audience: "client-1", nonce: "n1" }],
    ["wrong nonce", { nonce: "other" }, undefined, { audience: "client-1", nonce: "n1" }],
    ["missing nonce when one was sent", { nonce: undefined }, undefined, { audience: "client-1", nonce: "n1" }],
  ])("refuses a token: %s", async (_name, claims, expiresIn, opts) => {
    await expect(verifyIdToken(await token(claims, expiresIn), { issuer, ...opts })).rejects.toBeInstanceOf(IdTokenError);
  });

  it("refuses a token from another issuer", async () => {
    await expect(
      verifyIdToken(await token({ iss: "https://evil.example" }), { issuer, audience: "client-1", nonce: "n1" }),
    ).rejects.toBeInstanceOf(IdTokenError);
  });
});

describe.each(DIALECTS)("account state in the database on %s", (dialect) => {
  let t: TestDb;
  let parentId: string;
  beforeAll(async () => {
    t = await createTestDb(dialect);
    parentId = (await createParent(t.db, { email: `acc-${dialect}@example.com`, name: "Acc", passwordHash: "x" })).id;
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("links are single use (reused → used)", async () => {
    const link = newLink(SECRET, { parentId, purpose: "verify-email" });
    expect((await redeemLink(t.db, SECRET, link.iv, link.encryptedData, "verify-email")).ok).toBe(true);
    expect(await redeemLink(t.db, SECRET, link.iv, link.encryptedData, "verify-email")).toEqual({ ok: false, reason: "used" });
  });

  it("a link is redeemed once even under concurrent use", async () => {
    const link = newLink(SECRET, { parentId, purpose: "reset-password" });
    const results = await Promise.all(
      Array.from({ length: 5 }, () => redeemLink(t.db, SECRET, link.iv, link.encryptedData, "reset-password")),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("OTP: right code works once", async () => {
    const code = await issueOtp(t.db, SECRET, parentId);
    expect(code).toMatch(/^\d{4}$/);
    expect(await verifyOtp(t.db, SECRET, parentId, code)).toEqual({ ok: true });
    expect((await verifyOtp(t.db, SECRET, parentId, code)).ok).toBe(false);
  });

  it("OTP: 5 wrong tries void the code, and the right one no longer works", async () => {
    const code = await issueOtp(t.db, SECRET, parentId);
    const wrong = String((Number(code) + 1) % 10_000).padStart(4, "0");
    for (let i = 1; i <= 4; i++)
      expect(await verifyOtp(t.db, SECRET, parentId, wrong)).toEqual({ ok: false, reason: "wrong", triesLeft: 5 - i });
    expect(await verifyOtp(t.db, SECRET, parentId, wrong)).toEqual({ ok: false, reason: "voided" });
    expect(await verifyOtp(t.db, SECRET, parentId, code)).toEqual({ ok: false, reason: "voided" });
  });

  it("OTP: expires after 10 minutes; a new code voids the previous one; stored hashed", async () => {
    const t0 = new Date(Date.now() - 10 * 60_000 - 1000);
    const fresh = (await createParent(t.db, { email: `otp-exp-${dialect}@example.com`, name: "Exp", passwordHash: "x" })).id;
    const code = await issueOtp(t.db, SECRET, fresh, t0);
    expect(await verifyOtp(t.db, SECRET, fresh, code)).toEqual({ ok: false, reason: "expired" });
    const first = await issueOtp(t.db, SECRET, parentId);
    const second = await issueOtp(t.db, SECRET, parentId);
    const rows = await t.db.selectFrom("otp_codes").select("code_hash").where("parent_id", "=", parentId).execute();
    expect(rows.every((r) => r.code_hash.length === 64 && r.code_hash !== first && r.code_hash !== second)).toBe(true);
    if (first !== second) expect((await verifyOtp(t.db, SECRET, parentId, first)).ok).toBe(false);
    expect(await verifyOtp(t.db, SECRET, parentId, second)).toEqual({ ok: true });
  });

  it("OTP: 10 wrong codes an hour per allowance across codes (new sign-ins), a right code not counted; a device cookie's allowance apart", async () => {
    const id = (await createParent(t.db, { email: `otp-hour-${dialect}@example.com`, name: "Hour", passwordHash: "x" })).id;
    const at = new Date("2030-02-01T10:05:00Z");
    const wrongFor = (code: string) => String((Number(code) + 1) % 10_000).padStart(4, "0");
    // A right code first: it takes nothing from the allowance.
    const right = await issueOtp(t.db, SECRET, id, at);
    expect(await verifyOtp(t.db, SECRET, id, right, at)).toEqual({ ok: true });
    const first = await issueOtp(t.db, SECRET, id, at);
    for (let i = 0; i < 4; i++) await verifyOtp(t.db, SECRET, id, wrongFor(first), at);
    expect(await verifyOtp(t.db, SECRET, id, wrongFor(first), at)).toEqual({ ok: false, reason: "voided" });
    const second = await issueOtp(t.db, SECRET, id, at);
    for (let i = 4; i >= 1; i--)
      expect(await verifyOtp(t.db, SECRET, id, wrongFor(second), at)).toEqual({ ok: false, reason: "wrong", triesLeft: i });
    expect(await verifyOtp(t.db, SECRET, id, wrongFor(second), at)).toEqual({ ok: false, reason: "locked" });
    expect(await otpLocked(t.db, id, null, at)).toBe(true);
    expect(await startOtp(t.db, SECRET, id, null, at)).toEqual({ refused: "locked" });
    // A browser with its own allowance is not locked; the next hour is fresh.
    const device = "d".repeat(22);
    const third = await startOtp(t.db, SECRET, id, device, at);
    expect("code" in third && (await verifyOtp(t.db, SECRET, id, third.code, at, device))).toEqual({ ok: true });
    const later = new Date("2030-02-01T11:00:01Z");
    const fourth = await startOtp(t.db, SECRET, id, null, later);
    expect("code" in fourth && (await verifyOtp(t.db, SECRET, id, fourth.code, later))).toEqual({ ok: true });
  });

  it("OTP: at most 5 codes mailed an hour per allowance", async () => {
    const id = (await createParent(t.db, { email: `otp-mails-${dialect}@example.com`, name: "Mails", passwordHash: "x" })).id;
    const at = new Date("2030-02-01T12:30:00Z");
    for (let i = 0; i < 5; i++) expect(await startOtp(t.db, SECRET, id, null, at)).toHaveProperty("code");
    expect(await startOtp(t.db, SECRET, id, null, at)).toEqual({ refused: "notMailed" });
    expect(await startOtp(t.db, SECRET, id, "e".repeat(22), at)).toHaveProperty("code");
    expect(await startOtp(t.db, SECRET, id, null, new Date("2030-02-01T13:00:00Z"))).toHaveProperty("code");
  });

  it("rate limit: 10 attempts per IP per minute, then refused; another IP or minute is fresh", async () => {
    const e = { RATE_LIMIT_IP_PER_MINUTE: 10 };
    const req = (ip: string) => new Request("http://x/login", { headers: { "x-kp-client-ip": ip } });
    const now = new Date("2030-01-01T00:00:10Z");
    for (let i = 0; i < 10; i++) expect(await allowIp(t.db, e, req(`1.1.1.${dialect.length}`), "login", now)).toBe(true);
    expect(await allowIp(t.db, e, req(`1.1.1.${dialect.length}`), "login", now)).toBe(false);
    expect(await allowIp(t.db, e, req(`1.1.1.${dialect.length}`), "otp", now)).toBe(true);
    expect(await allowIp(t.db, e, req("2.2.2.2"), "login", now)).toBe(true);
    expect(await allowIp(t.db, e, req(`1.1.1.${dialect.length}`), "login", new Date("2030-01-01T00:01:10Z"))).toBe(true);
  });

  it("rate limit: the web's allowIp and the kids app's allowAddress count on one counter per address", async () => {
    const e = { RATE_LIMIT_IP_PER_MINUTE: 4 };
    const ip = `3.3.3.${dialect.length}`;
    const now = new Date("2030-01-01T00:00:20Z");
    for (let i = 0; i < 2; i++)
      expect(await allowIp(t.db, e, new Request("http://x/login", { headers: { "x-kp-client-ip": ip } }), "login", now)).toBe(true);
    for (let i = 0; i < 2; i++) expect(await allowAddress(t.db, e, ip, "login", now)).toBe(true);
    expect(await allowIp(t.db, e, new Request("http://x/login", { headers: { "x-kp-client-ip": ip } }), "login", now)).toBe(false);
    expect(await allowAddress(t.db, e, ip, "login", now)).toBe(false);
  });

  it("rate limit: an account locks after 100 failed sign-ins in an hour", async () => {
    const e = { RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR: 100 };
    const now = new Date("2030-01-01T05:10:00Z");
    const email = `locked-${dialect}@example.com`;
    for (let i = 0; i < 99; i++) await recordFailedLogin(t.db, email, now);
    expect(await accountLocked(t.db, e, email, now)).toBe(false);
    await recordFailedLogin(t.db, email, now);
    expect(await accountLocked(t.db, e, email.toUpperCase(), now)).toBe(true);
    expect(await accountLocked(t.db, e, email, new Date("2030-01-01T06:00:01Z"))).toBe(false);
  });
});
