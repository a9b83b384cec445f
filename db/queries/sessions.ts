import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../index";
import { executeCompiledOnce } from "../compiled";
import type { Parent } from "../schema";
import { nowIso } from "../../core/ids.server";
import { setBounded } from "../../core/bounded";

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
  const id = sessionIdOf(token);
  if (!id) return undefined;
  await touched(id);
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
  return row && (await checkLive(db, row, policy, now)) ? row : undefined;
}

/**
 * Idle-clock touches in flight, by session id. The touch is housekeeping: the request that found the session live
 * does not wait for its commit (a commit waits for the disk's flush, which can stall for hundreds of milliseconds
 * on the VMs the benches run on). The next read of the same session in this process waits for it first
 * (`touched`), so it reads its own write; a touch that fails costs at most a minute of the idle window.
 */
const touching = new Map<string, Promise<void>>();

/** Awaited before a session's row is read: its touch in flight in this process, if any. */
export function touched(sessionId: string): Promise<void> | undefined {
  return touching.get(sessionId);
}

/** The rules of a live session, and the once-a-minute touch of its idle clock (not waited for: `touching`). */
async function checkLive(
  db: DB,
  row: { id: string; revoked_at: string | null; expires_at: string; last_seen_at: string },
  policy: SessionPolicy,
  now: Date,
): Promise<boolean> {
  if (row.revoked_at) return false;
  if (new Date(row.expires_at).getTime() <= now.getTime()) return false;
  const lastSeen = new Date(row.last_seen_at).getTime();
  if (now.getTime() - lastSeen > policy.idleMinutes * 60_000) return false;
  if (now.getTime() - lastSeen > 60_000 && !touching.has(row.id)) {
    const id = row.id;
    touching.set(
      id,
      db
        .updateTable("sessions")
        .set({ last_seen_at: nowIso(now) })
        .where("id", "=", id)
        .execute()
        .then(
          () => {},
          () => {},
        )
        .finally(() => touching.delete(id)),
    );
  }
  return true;
}

/** The session id (the hash) a token names, or null for a token no session can have. */
export function sessionIdOf(token: string): string | null {
  if (!token || token.length > 200) return null;
  let id = sessionIds.get(token);
  if (id === undefined) {
    id = hashToken(token);
    setBounded(sessionIds, token, id, SESSION_IDS_MAX);
  }
  return id;
}

/**
 * Tokens already hashed, and their session ids: a browser sends the same token on every request, and the SHA-256
 * (a hash object, its update and digest) was 4 % of a cached dashboard view's CPU.
 * The id is a function of the token alone; whether its session is live is checked every time, after. Bounded:
 * the oldest token out first.
 */
const sessionIds = new Map<string, string>();
const SESSION_IDS_MAX = 1_000;

/** The session's row with its parent's (session columns as `session_…`), for findLiveSessionParent and callers that add to it. */
export function sessionParentQuery(db: DB, sessionId: string) {
  return db
    .selectFrom("sessions")
    .innerJoin("parents", "parents.id", "sessions.parent_id")
    .selectAll("parents")
    .select([
      "sessions.id as session_id",
      "sessions.revoked_at as session_revoked_at",
      "sessions.expires_at as session_expires_at",
      "sessions.last_seen_at as session_last_seen_at",
    ])
    .where("sessions.id", "=", sessionId);
}

/** The parent of a sessionParentQuery row if the session is live (checkLive's rules and idle touch), else undefined. */
export async function liveParentOf(
  db: DB,
  row: Parent & { session_id: string; session_revoked_at: string | null; session_expires_at: string; session_last_seen_at: string },
  policy: SessionPolicy,
  now: Date,
): Promise<Parent | undefined> {
  const { session_id, session_revoked_at, session_expires_at, session_last_seen_at, ...parent } = row;
  const live = await checkLive(
    db,
    { id: session_id, revoked_at: session_revoked_at, expires_at: session_expires_at, last_seen_at: session_last_seen_at },
    policy,
    now,
  );
  return live ? parent : undefined;
}

/** findLiveSession and the session's parent in one query (one round trip on every guarded page). */
export async function findLiveSessionParent(
  db: DB,
  token: string,
  policy: SessionPolicy,
  now: Date = new Date(),
): Promise<Parent | undefined> {
  const id = sessionIdOf(token);
  if (!id) return undefined;
  await touched(id);
  // Read on every guarded request and page-cache hit: built and compiled once per session (its id is the only input).
  const [row] = await executeCompiledOnce(db, JSON.stringify(["live-session", id]), () => sessionParentQuery(db, id));
  return row ? liveParentOf(db, row, policy, now) : undefined;
}

export async function revokeSession(db: DB, token: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ revoked_at: nowIso() })
    .where("id", "=", hashToken(token))
    .where("revoked_at", "is", null)
    .execute();
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

/**
 * Of these session ids, those that ended: revoked, past their absolute expiry, or gone. A read only (no idle-clock
 * touch): the live-update streams ask it for every session they serve (app/utils/sse.server.ts).
 */
export async function endedSessionIds(db: DB, ids: string[], now: Date = new Date()): Promise<Set<string>> {
  const ended = new Set(ids);
  const all = [...ended];
  for (let i = 0; i < all.length; i += 500) {
    const live = await db
      .selectFrom("sessions")
      .select("id")
      .where("id", "in", all.slice(i, i + 500))
      .where("revoked_at", "is", null)
      .where("expires_at", ">", nowIso(now))
      .execute();
    for (const r of live) ended.delete(r.id);
  }
  return ended;
}
