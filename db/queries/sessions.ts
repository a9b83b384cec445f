import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../index";
import { nowIso } from "./ids";

export interface SessionPolicy {
  idleMinutes: number;
  absoluteDays: number;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates a session row and returns the bearer token (256 random bits). Only its hash is stored. */
export async function createSession(
  db: DB,
  parentId: string,
  policy: SessionPolicy,
  meta: { userAgent?: string | null; ip?: string | null } = {},
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await db
    .insertInto("sessions")
    .values({
      id: hashToken(token),
      parent_id: parentId,
      user_agent: meta.userAgent?.slice(0, 300) ?? null,
      ip: meta.ip ?? null,
      created_at: nowIso(now),
      last_seen_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + policy.absoluteDays * 86_400_000)),
      revoked_at: null,
    })
    .execute();
  return token;
}

/**
 * Resolves a token to its live session: not revoked, before its absolute expiry, and used within the idle window.
 * Touches last_seen_at at most once a minute so reads stay cheap.
 */
export async function findLiveSession(db: DB, token: string, policy: SessionPolicy, now: Date = new Date()) {
  if (!token || token.length > 200) return undefined;
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", hashToken(token)).executeTakeFirst();
  if (!row || row.revoked_at) return undefined;
  if (new Date(row.expires_at).getTime() <= now.getTime()) return undefined;
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (now.getTime() - lastSeen > policy.idleMinutes * 60_000) return undefined;
  if (now.getTime() - lastSeen > 60_000) {
    await db.updateTable("sessions").set({ last_seen_at: nowIso(now) }).where("id", "=", row.id).execute();
  }
  return row;
}

export async function revokeSession(db: DB, token: string): Promise<void> {
  await db.updateTable("sessions").set({ revoked_at: nowIso() }).where("id", "=", hashToken(token)).where("revoked_at", "is", null).execute();
}

export async function revokeAllSessions(db: DB, parentId: string): Promise<number> {
  const res = await db
    .updateTable("sessions")
    .set({ revoked_at: nowIso() })
    .where("parent_id", "=", parentId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}
