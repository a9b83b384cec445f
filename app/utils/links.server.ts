import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import type { DB } from "#db/index";
import { isLinkUsed, spendLinkOnce } from "#db/queries/accounts";

/**
 * Email links carry `iv` and `encryptedData`: AES-256-GCM of { link id, user, purpose, expiry }. GCM's tag
 * authenticates the payload, so a changed byte is refused; the link id makes every link single use.
 */
export type LinkPurpose = "verify-email" | "reset-password" | "set-password";

export const LINK_TTL_MS: Record<LinkPurpose, number> = {
  "verify-email": 24 * 60 * 60_000,
  "reset-password": 60 * 60_000, // ≤ 1 hour
  "set-password": 60 * 60_000,
};

export interface LinkPayload {
  /** link id (single use) */
  jti: string;
  /** parent id */
  sub: string;
  purpose: LinkPurpose;
  /** expiry, ms since epoch */
  exp: number;
  /** fingerprint of the password hash when the link was made: a password change kills older reset links */
  pwv?: string;
}

export type LinkFailure = "invalid" | "expired" | "used";

export const LINK_MESSAGES: Record<LinkFailure, string> = {
  invalid: "This link is invalid. Please request a new one.",
  expired: "This link has expired. Please request a new one.",
  used: "This link has already been used. Please request a new one.",
};

function key(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "kids-portal", "email-links v1", 32));
}

export function passwordFingerprint(passwordHash: string | null): string {
  return createHash("sha256")
    .update(passwordHash ?? "none")
    .digest("base64url")
    .slice(0, 12);
}

export function sealLink(secret: string, payload: LinkPayload): { iv: string; encryptedData: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(secret), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), "utf8"), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString("base64url"), encryptedData: body.toString("base64url") };
}

export function newLink(
  secret: string,
  input: { parentId: string; purpose: LinkPurpose; passwordHash?: string | null },
  now: Date = new Date(),
) {
  const payload: LinkPayload = {
    jti: randomBytes(16).toString("base64url"),
    sub: input.parentId,
    purpose: input.purpose,
    exp: now.getTime() + LINK_TTL_MS[input.purpose],
    ...(input.passwordHash !== undefined ? { pwv: passwordFingerprint(input.passwordHash) } : {}),
  };
  return { payload, ...sealLink(secret, payload) };
}

/** Decrypts and checks a link (authenticity, purpose, expiry). Does not consume it. */
export function openLink(
  secret: string,
  iv: string | null | undefined,
  encryptedData: string | null | undefined,
  purpose: LinkPurpose,
  now: Date = new Date(),
): { ok: true; payload: LinkPayload } | { ok: false; reason: LinkFailure } {
  if (!iv || !encryptedData || iv.length > 64 || encryptedData.length > 2048) return { ok: false, reason: "invalid" };
  let payload: LinkPayload;
  try {
    const ivBuf = Buffer.from(iv, "base64url");
    const data = Buffer.from(encryptedData, "base64url");
    if (ivBuf.length !== 12 || data.length < 17) return { ok: false, reason: "invalid" };
    const decipher = createDecipheriv("aes-256-gcm", key(secret), ivBuf);
    decipher.setAuthTag(data.subarray(data.length - 16));
    const plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
    payload = JSON.parse(plain) as LinkPayload;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (
    payload.purpose !== purpose ||
    typeof payload.sub !== "string" ||
    typeof payload.jti !== "string" ||
    typeof payload.exp !== "number"
  ) {
    return { ok: false, reason: "invalid" };
  }
  if (payload.exp <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, payload };
}

/** Open and check the link has not been used yet (for showing a form). */
export async function checkLink(
  db: DB,
  secret: string,
  iv: string | null,
  encryptedData: string | null,
  purpose: LinkPurpose,
  now = new Date(),
) {
  const opened = openLink(secret, iv, encryptedData, purpose, now);
  if (!opened.ok) return opened;
  if (await isLinkUsed(db, opened.payload.jti)) return { ok: false as const, reason: "used" as const };
  return opened;
}

/** Open and consume: succeeds once per link, even under concurrent use. */
export async function redeemLink(
  db: DB,
  secret: string,
  iv: string | null,
  encryptedData: string | null,
  purpose: LinkPurpose,
  now = new Date(),
) {
  const opened = openLink(secret, iv, encryptedData, purpose, now);
  if (!opened.ok) return opened;
  const first = await spendLinkOnce(db, { id: opened.payload.jti, purpose, expiresAt: new Date(opened.payload.exp) }, now);
  if (!first) return { ok: false as const, reason: "used" as const };
  return opened;
}

export function linkUrl(origin: string, path: string, link: { iv: string; encryptedData: string }): string {
  const url = new URL(path, origin);
  url.searchParams.set("iv", link.iv);
  url.searchParams.set("encryptedData", link.encryptedData);
  return url.toString();
}
