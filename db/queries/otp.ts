import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { DB } from "../index";
import { OTP_MAX_ATTEMPTS, consumeOtp, hitCounter, latestOtp, peekCounter, refundCounter, spendOtpTry, storeOtp } from "./accounts";

/**
 * Two-step sign-in codes: 4 digits, 10 minutes, single use, 5 wrong tries void the code, HMAC-hashed at rest.
 * The account's limits hold across sign-ins (a new sign-in, hence a new code, resets neither): at most
 * OTP_WRONG_PER_HOUR wrong codes and OTP_MAILS_PER_HOUR mailed codes an hour, per allowance — a browser with the
 * account's device cookie has its own, every other client (new browsers, the kids app) shares one
 * (db/queries/rate-limits.ts), so a stranger who knows the password cannot lock the parent's known browser out.
 */
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_LENGTH = 4;
export const OTP_WRONG_PER_HOUR = 10;
export const OTP_MAILS_PER_HOUR = 5;
const HOUR = 3_600_000;

export type OtpResult =
  | { ok: true }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "voided" | "expired" | "none" | "locked" };

export const OTP_MESSAGES = {
  wrong: (left: number) => `The code is incorrect. You have ${left} ${left === 1 ? "try" : "tries"} left.`,
  voided: "Too many wrong codes. This code is no longer valid. Please sign in again to get a new code.",
  expired: "This code has expired. Please sign in again to get a new code.",
  none: "There is no valid code for this sign-in. Please sign in again to get a new code.",
  locked: "Too many wrong codes for this account. Please wait an hour, then sign in again to get a new code.",
  notMailed: `We have already emailed you ${OTP_MAILS_PER_HOUR} codes this hour, so we did not send another. Enter the latest code we sent you, or sign in again in an hour.`,
} as const;

function hashCode(secret: string, id: string, code: string): string {
  return createHmac("sha256", secret).update(`otp:${id}:${code}`).digest("hex");
}

/** The counter of one allowance: a device cookie's (its nonce), or the untrusted clients' (null). */
function counterKey(kind: "otp-fail" | "otp-mail", parentId: string, device: string | null): string {
  return device ? `${kind}-dev:${device}:${parentId}` : `${kind}:${parentId}`;
}

export async function issueOtp(db: DB, secret: string, parentId: string, now: Date = new Date()): Promise<string> {
  const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, "0");
  const id = randomBytes(12).toString("base64url");
  await storeOtp(db, parentId, id, hashCode(secret, id, code), OTP_TTL_MS, now);
  return code;
}

/** True when this allowance has had OTP_WRONG_PER_HOUR wrong codes this hour: no code is checked (or mailed) until the next. */
export async function otpLocked(db: DB, parentId: string, device: string | null = null, now: Date = new Date()): Promise<boolean> {
  return (await peekCounter(db, counterKey("otp-fail", parentId, device), HOUR, now)) >= OTP_WRONG_PER_HOUR;
}

/**
 * The code step of a sign-in whose password (or link, or provider) was right: a fresh code to mail, or why none is
 * mailed — `locked` (too many wrong codes this hour) or `notMailed` (OTP_MAILS_PER_HOUR codes mailed this hour; the
 * latest one still works until it expires).
 */
export async function startOtp(
  db: DB,
  secret: string,
  parentId: string,
  device: string | null = null,
  now: Date = new Date(),
): Promise<{ code: string } | { refused: "locked" | "notMailed" }> {
  if (await otpLocked(db, parentId, device, now)) return { refused: "locked" };
  if ((await hitCounter(db, counterKey("otp-mail", parentId, device), HOUR, now)) > OTP_MAILS_PER_HOUR) return { refused: "notMailed" };
  return { code: await issueOtp(db, secret, parentId, now) };
}

export async function verifyOtp(
  db: DB,
  secret: string,
  parentId: string,
  code: string,
  now: Date = new Date(),
  device: string | null = null,
): Promise<OtpResult> {
  if (await otpLocked(db, parentId, device, now)) return { ok: false, reason: "locked" };
  const row = await latestOtp(db, parentId);
  if (!row) return { ok: false, reason: "none" };
  if (row.consumed_at) return { ok: false, reason: Number(row.attempts) >= OTP_MAX_ATTEMPTS ? "voided" : "none" };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  // One try of the account's hourly allowance is taken before the code is compared (so parallel guesses cannot
  // overdraw it) and given back when the code is right or was not tried.
  const failKey = counterKey("otp-fail", parentId, device);
  const spent = await hitCounter(db, failKey, HOUR, now);
  if (spent > OTP_WRONG_PER_HOUR) return { ok: false, reason: "locked" };
  const used = await spendOtpTry(db, row.id, now);
  if (used === null) {
    await refundCounter(db, failKey, HOUR, now);
    return { ok: false, reason: "voided" };
  }
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(hashCode(secret, row.id, code.trim()), "hex");
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    await refundCounter(db, failKey, HOUR, now);
    return (await consumeOtp(db, row.id, now)) ? { ok: true } : { ok: false, reason: "none" };
  }
  if (spent >= OTP_WRONG_PER_HOUR || used >= OTP_MAX_ATTEMPTS) {
    await consumeOtp(db, row.id, now);
    return { ok: false, reason: spent >= OTP_WRONG_PER_HOUR ? "locked" : "voided" };
  }
  return { ok: false, reason: "wrong", triesLeft: Math.min(OTP_MAX_ATTEMPTS - used, OTP_WRONG_PER_HOUR - spent) };
}
