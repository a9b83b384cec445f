import { createHash, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";

// ---------- parents ----------

export async function markEmailVerified(db: DB, parentId: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("parents")
    .set({ email_verified_at: nowIso(now), updated_at: nowIso(now) })
    .where("id", "=", parentId)
    .where("email_verified_at", "is", null)
    .execute();
}

export async function setTwoStep(db: DB, parentId: string, enabled: boolean): Promise<void> {
  await db
    .updateTable("parents")
    .set({ two_step_enabled: enabled ? 1 : 0, updated_at: nowIso() })
    .where("id", "=", parentId)
    .execute();
}

export async function setHideGoogle(db: DB, parentId: string, hide: boolean): Promise<void> {
  await db
    .updateTable("parents")
    .set({ hide_google: hide ? 1 : 0, updated_at: nowIso() })
    .where("id", "=", parentId)
    .execute();
}

// ---------- sessions (listing and targeted sign-out) ----------

export interface SessionView {
  id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** Sessions that have not been revoked and are before their absolute expiry, newest activity first. */
export async function listLiveSessions(db: DB, parentId: string, now: Date = new Date()): Promise<SessionView[]> {
  return db
    .selectFrom("sessions")
    .select(["id", "user_agent", "ip", "created_at", "last_seen_at", "expires_at"])
    .where("parent_id", "=", parentId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .orderBy("last_seen_at", "desc")
    .execute();
}

/** Revokes one of the parent's own sessions by its id (the token hash). Another parent's id does nothing. */
export async function revokeSessionById(db: DB, parentId: string, sessionId: string): Promise<boolean> {
  const res = await db
    .updateTable("sessions")
    .set({ revoked_at: nowIso() })
    .where("id", "=", sessionId)
    .where("parent_id", "=", parentId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// ---------- mail outbox (no SMTP configured) ----------

export async function addToOutbox(db: DB, mail: { to: string; subject: string; text: string }, now: Date = new Date()): Promise<string> {
  const id = newId();
  await db
    .insertInto("mail_outbox")
    .values({ id, to_address: mail.to, subject: mail.subject, text_body: mail.text, created_at: nowIso(now) })
    .execute();
  return id;
}

export async function listOutbox(db: DB, limit = 50) {
  return db.selectFrom("mail_outbox").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
}

// ---------- single-use links ----------

/** Records a link id as used. False when it was used before (the primary key refuses the second insert). */
export async function spendLinkOnce(
  db: DB,
  link: { id: string; purpose: string; expiresAt: Date },
  now: Date = new Date(),
): Promise<boolean> {
  const res = await db
    .insertInto("used_links")
    .values({ id: link.id, purpose: link.purpose, used_at: nowIso(now), expires_at: nowIso(link.expiresAt) })
    .onConflict((oc) => oc.column("id").doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function isLinkUsed(db: DB, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom("used_links").select("id").where("id", "=", id).executeTakeFirst());
}

// ---------- OTP codes ----------

export const OTP_MAX_ATTEMPTS = 5;

/** Stores a new code (hashed by the caller) and voids every earlier one of the parent. */
export async function storeOtp(
  db: DB,
  parentId: string,
  id: string,
  codeHash: string,
  ttlMs: number,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("otp_codes")
      .set({ consumed_at: nowIso(now) })
      .where("parent_id", "=", parentId)
      .where("consumed_at", "is", null)
      .execute();
    await trx
      .insertInto("otp_codes")
      .values({
        id,
        parent_id: parentId,
        code_hash: codeHash,
        created_at: nowIso(now),
        expires_at: nowIso(new Date(now.getTime() + ttlMs)),
        consumed_at: null,
      })
      .execute();
  });
}

/** The parent's live code (storeOtp keeps at most one), else the most recent spent one (to explain why). */
export async function latestOtp(db: DB, parentId: string) {
  const live = await db
    .selectFrom("otp_codes")
    .selectAll()
    .where("parent_id", "=", parentId)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return (
    live ??
    db
      .selectFrom("otp_codes")
      .selectAll()
      .where("parent_id", "=", parentId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst()
  );
}

/** Spends one try atomically. Returns the tries used so far, or null when the code is gone (used, voided, expired). */
export async function spendOtpTry(db: DB, id: string, now: Date = new Date()): Promise<number | null> {
  const row = await db
    .updateTable("otp_codes")
    .set({ attempts: sql`attempts + 1` })
    .where("id", "=", id)
    .where("consumed_at", "is", null)
    .where("attempts", "<", OTP_MAX_ATTEMPTS)
    .where("expires_at", ">", nowIso(now))
    .returning("attempts")
    .executeTakeFirst();
  return row ? Number(row.attempts) : null;
}

/** Marks a code consumed (right code) or void (too many tries). True only for the caller that did it. */
export async function consumeOtp(db: DB, id: string, now: Date = new Date()): Promise<boolean> {
  const res = await db
    .updateTable("otp_codes")
    .set({ consumed_at: nowIso(now) })
    .where("id", "=", id)
    .where("consumed_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

// ---------- one-time sign-in tokens (?token=) ----------

const hashToken = (t: string) => createHash("sha256").update(t).digest("hex");

export async function createSigninToken(
  db: DB,
  parentId: string,
  ttlMs: number,
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ttlMs);
  await db
    .insertInto("signin_tokens")
    .values({ id: hashToken(token), parent_id: parentId, created_at: nowIso(now), expires_at: nowIso(expiresAt), used_at: null })
    .execute();
  return { token, expiresAt };
}

/** The parent a token would sign in, without using it: null when unknown, expired or already used. */
export async function peekSigninToken(db: DB, token: string, now: Date = new Date()): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom("signin_tokens")
    .select("parent_id")
    .where("id", "=", hashToken(token))
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirst();
  return row?.parent_id ?? null;
}

/** Redeems a token once: the parent id, or null when unknown, expired or already used. */
export async function redeemSigninToken(db: DB, token: string, now: Date = new Date()): Promise<string | null> {
  if (!token || token.length > 200) return null;
  const id = hashToken(token);
  const res = await db
    .updateTable("signin_tokens")
    .set({ used_at: nowIso(now) })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  const row = await db.selectFrom("signin_tokens").select("parent_id").where("id", "=", id).executeTakeFirst();
  return row?.parent_id ?? null;
}

// ---------- rate-limit counters (fixed windows) ----------

function windowStart(now: Date, windowMs: number): string {
  return nowIso(new Date(Math.floor(now.getTime() / windowMs) * windowMs));
}

/** Adds one hit to the key's current window and returns the window's count. */
export async function hitCounter(db: DB, key: string, windowMs: number, now: Date = new Date()): Promise<number> {
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_start: windowStart(now, windowMs), hits: 1 })
    .onConflict((oc) => oc.columns(["key", "window_start"]).doUpdateSet({ hits: sql`rate_limits.hits + 1` }))
    .returning("hits")
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

/** Takes back one hit of the key's current window (a try that was reserved and turned out not to count). */
export async function refundCounter(db: DB, key: string, windowMs: number, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("rate_limits")
    .set({ hits: sql`hits - 1` })
    .where("key", "=", key)
    .where("window_start", "=", windowStart(now, windowMs))
    .where("hits", ">", 0)
    .execute();
}

export async function peekCounter(db: DB, key: string, windowMs: number, now: Date = new Date()): Promise<number> {
  const row = await db
    .selectFrom("rate_limits")
    .select("hits")
    .where("key", "=", key)
    .where("window_start", "=", windowStart(now, windowMs))
    .executeTakeFirst();
  return row ? Number(row.hits) : 0;
}

/** Housekeeping: forget counters, used links and codes that can no longer matter. */
export async function pruneAccountState(db: DB, now: Date = new Date()): Promise<void> {
  const dayAgo = nowIso(new Date(now.getTime() - 86_400_000));
  await db.deleteFrom("rate_limits").where("window_start", "<", dayAgo).execute();
  await db.deleteFrom("used_links").where("expires_at", "<", dayAgo).execute();
  await db.deleteFrom("otp_codes").where("expires_at", "<", dayAgo).execute();
  await db.deleteFrom("signin_tokens").where("expires_at", "<", dayAgo).execute();
}
