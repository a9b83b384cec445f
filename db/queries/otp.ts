import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { DB } from "../index";
import { OTP_MAX_ATTEMPTS, consumeOtp, latestOtp, spendOtpTry, storeOtp } from "./accounts";

/** Two-step sign-in codes: 4 digits, 10 minutes, single use, 5 wrong tries void the code, HMAC-hashed at rest. */
export const OTP_TTL_MS = 10 * 60_000;
export const OTP_LENGTH = 4;

export type OtpResult =
  | { ok: true }
  | { ok: false; reason: "wrong"; triesLeft: number }
  | { ok: false; reason: "voided" | "expired" | "none" };

export const OTP_MESSAGES = {
  wrong: (left: number) => `The code is incorrect. You have ${left} ${left === 1 ? "try" : "tries"} left.`,
  voided: "Too many wrong codes. This code is no longer valid. Please sign in again to get a new code.",
  expired: "This code has expired. Please sign in again to get a new code.",
  none: "There is no valid code for this sign-in. Please sign in again to get a new code.",
} as const;

function hashCode(secret: string, id: string, code: string): string {
  return createHmac("sha256", secret).update(`otp:${id}:${code}`).digest("hex");
}

export async function issueOtp(db: DB, secret: string, parentId: string, now: Date = new Date()): Promise<string> {
  const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, "0");
  const id = randomBytes(12).toString("base64url");
  await storeOtp(db, parentId, id, hashCode(secret, id, code), OTP_TTL_MS, now);
  return code;
}

export async function verifyOtp(db: DB, secret: string, parentId: string, code: string, now: Date = new Date()): Promise<OtpResult> {
  const row = await latestOtp(db, parentId);
  if (!row) return { ok: false, reason: "none" };
  if (row.consumed_at) return { ok: false, reason: Number(row.attempts) >= OTP_MAX_ATTEMPTS ? "voided" : "none" };
  if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  const used = await spendOtpTry(db, row.id, now);
  if (used === null) return { ok: false, reason: "voided" };
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(hashCode(secret, row.id, code.trim()), "hex");
  if (expected.length === given.length && timingSafeEqual(expected, given)) {
    return (await consumeOtp(db, row.id, now)) ? { ok: true } : { ok: false, reason: "none" };
  }
  if (used >= OTP_MAX_ATTEMPTS) {
    await consumeOtp(db, row.id, now);
    return { ok: false, reason: "voided" };
  }
  return { ok: false, reason: "wrong", triesLeft: OTP_MAX_ATTEMPTS - used };
}
