import { createHash, randomBytes } from "node:crypto";
import type { DB } from "../index";
import type { Parent } from "../schema";
import type { ApiToken, ApiTokenScope } from "../schema-api";
import { newId, nowIso } from "../../core/ids.server";
import { setBounded } from "../../core/bounded";

/** What every personal access token starts with: recognisable in a leaked config file, and never a session token. */
export const API_TOKEN_PREFIX = "kp_";
/** Tokens a parent may hold at once (live ones: not revoked, not expired). */
export const API_TOKENS_PER_PARENT = 20;
/** Longest life a token may be given, in days. */
export const API_TOKEN_MAX_DAYS = 366;

export function isApiToken(token: string): boolean {
  return token.startsWith(API_TOKEN_PREFIX) && token.length === API_TOKEN_PREFIX.length + 43;
}

const hashes = new Map<string, string>();
/** The stored form of a token (SHA-256, hex); kept for the last tokens seen, as the session ids are. */
export function apiTokenHash(token: string): string {
  let h = hashes.get(token);
  if (h === undefined) {
    h = createHash("sha256").update(token).digest("hex");
    setBounded(hashes, token, h, 1_000);
  }
  return h;
}

export interface NewApiToken {
  name: string;
  scope: ApiTokenScope;
  expiresAt: Date;
}

/** Makes a token and returns it with its row: the token is shown this once and never stored. */
export async function createApiToken(
  db: DB,
  parentId: string,
  t: NewApiToken,
  now = new Date(),
): Promise<{ token: string; row: ApiToken }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  const row: ApiToken = {
    id: newId(),
    parent_id: parentId,
    name: t.name,
    scope: t.scope,
    token_hash: apiTokenHash(token),
    created_at: nowIso(now),
    expires_at: nowIso(t.expiresAt),
    revoked_at: null,
    last_used_at: null,
  };
  await db.insertInto("api_tokens").values(row).execute();
  return { token, row };
}

/** A parent's tokens, newest first (revoked and expired ones too, so the page can say so). Never the hashes. */
export function listApiTokens(db: DB, parentId: string) {
  return db
    .selectFrom("api_tokens")
    .select(["id", "name", "scope", "created_at", "expires_at", "revoked_at", "last_used_at"])
    .where("parent_id", "=", parentId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(100)
    .execute();
}

export async function countLiveApiTokens(db: DB, parentId: string, now = new Date()): Promise<number> {
  const r = await db
    .selectFrom("api_tokens")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", parentId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", nowIso(now))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Revokes one of the parent's own tokens; false when it is not theirs or was revoked already. */
export async function revokeApiToken(db: DB, parentId: string, id: string, now = new Date()): Promise<boolean> {
  const r = await db
    .updateTable("api_tokens")
    .set({ revoked_at: nowIso(now) })
    .where("id", "=", id)
    .where("parent_id", "=", parentId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export type ApiTokenState =
  | { ok: true; parent: Parent; token: Pick<ApiToken, "id" | "scope"> }
  | { ok: false; reason: "unknown" | "revoked" | "expired" };

/**
 * The parent a token acts as, with the token's scope, in one statement; or why it is refused. Touches last_used_at at
 * most once a minute (not waited for, as the session's idle clock).
 */
export async function resolveApiToken(db: DB, token: string, now = new Date()): Promise<ApiTokenState> {
  const row = await db
    .selectFrom("api_tokens")
    .innerJoin("parents", "parents.id", "api_tokens.parent_id")
    .selectAll("parents")
    .select([
      "api_tokens.id as token_id",
      "api_tokens.scope as token_scope",
      "api_tokens.expires_at as token_expires_at",
      "api_tokens.revoked_at as token_revoked_at",
      "api_tokens.last_used_at as token_last_used_at",
    ])
    .where("api_tokens.token_hash", "=", apiTokenHash(token))
    .executeTakeFirst();
  if (!row) return { ok: false, reason: "unknown" };
  const { token_id, token_scope, token_expires_at, token_revoked_at, token_last_used_at, ...parent } = row;
  if (token_revoked_at) return { ok: false, reason: "revoked" };
  if (new Date(token_expires_at).getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  if (!token_last_used_at || now.getTime() - new Date(token_last_used_at).getTime() > 60_000) {
    db.updateTable("api_tokens")
      .set({ last_used_at: nowIso(now) })
      .where("id", "=", token_id)
      .execute()
      .catch(() => {});
  }
  return { ok: true, parent, token: { id: token_id, scope: token_scope } };
}
