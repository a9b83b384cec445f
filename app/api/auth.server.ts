import type { Request as ExpressRequest } from "express";
import { findLiveSessionParent, sessionIdOf } from "#db/queries/sessions";
import { isApiToken, resolveApiToken } from "#db/queries/api-tokens";
import type { Parent } from "#db/schema";
import type { AppServices } from "~/load-context";
import { ApiError, MESSAGES } from "./envelope";
import type { Credential } from "./define";

/** The bearer token of a call: `Authorization: Bearer <token>` only (no cookie, so no cross-site request can make a call). */
export function bearerOf(req: ExpressRequest): string | null {
  const header = req.get("Authorization");
  if (!header) return null;
  const m = /^Bearer\s+(\S{1,200})\s*$/i.exec(header);
  return m ? m[1]! : null;
}

/**
 * Who the bearer is: a personal access token (`kp_…`, made on the parent profile) or the session token the sign-in
 * gave (POST /users/login, or the wrapper's hand-off). Anything else is a 401 with `is_logout: 1`.
 */
export async function authenticate(services: AppServices, req: ExpressRequest): Promise<{ parent: Parent; credential: Credential }> {
  const token = bearerOf(req);
  if (!token) throw new ApiError(401, MESSAGES.signIn);
  if (isApiToken(token)) {
    const found = await resolveApiToken(services.db, token);
    if (!found.ok)
      throw new ApiError(
        401,
        found.reason === "revoked" ? MESSAGES.revokedToken : found.reason === "expired" ? MESSAGES.expiredToken : MESSAGES.unknownToken,
      );
    return { parent: found.parent, credential: { kind: "token", id: found.token.id, scope: found.token.scope } };
  }
  const e = services.env;
  const parent = await findLiveSessionParent(services.db, token, {
    idleMinutes: e.SESSION_IDLE_MINUTES,
    absoluteDays: e.SESSION_ABSOLUTE_DAYS,
  });
  if (!parent) throw new ApiError(401, MESSAGES.signIn);
  return { parent, credential: { kind: "session", token } };
}

/** The rate-limit key of a credential: the token's id, or the session's (the hash of its token), never the token. */
export function limitKey(credential: Credential): string {
  return credential.kind === "token" ? `t:${credential.id}` : `s:${sessionIdOf(credential.token)}`;
}

/** Calls each token may make in a minute (per process), and the per-address allowance of calls made without one. */
export const API_CALLS_PER_MINUTE = 300;

/**
 * Per-token rate limits: a fixed one-minute window per token, counted in this process's memory (no write per call:
 * the API's reads cost what the pages' do). Bounded: windows past their minute are dropped as new ones open.
 */
export class CallLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(
    private readonly perMinute = API_CALLS_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one call; false when this key is over its minute's allowance. */
  allow(key: string): { ok: boolean; remaining: number; resetSeconds: number } {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= 60_000) {
      if (this.windows.size >= 10_000) this.prune(t);
      w = { start: t, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    return {
      ok: w.count <= this.perMinute,
      remaining: Math.max(0, this.perMinute - w.count),
      resetSeconds: Math.ceil((w.start + 60_000 - t) / 1000),
    };
  }

  private prune(t: number) {
    for (const [k, w] of this.windows) if (t - w.start >= 60_000) this.windows.delete(k);
    while (this.windows.size >= 10_000) this.windows.delete(this.windows.keys().next().value!);
  }
}
