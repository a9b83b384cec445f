import type { DB } from "../../db/index";
import { hitCounter, peekCounter } from "../../db/queries/accounts";
import type { Env } from "./env.server";

import { CLIENT_IP_HEADER } from "./security.server";

export type LimitedAction = "login" | "otp" | "forgot" | "reset" | "registration" | "set-password" | "signin-token";

export const RATE_LIMIT_MESSAGE = "Too many attempts from your network. Please wait a minute and try again.";
export const ACCOUNT_LOCK_MESSAGE =
  "Too many failed sign-in attempts for this account. Please try again in an hour, or reset your password.";

/** The client address as Express saw it (set by securityHeaders from req.ip, never from the client). */
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || "unknown";
}

/**
 * Counts one attempt of `action` from this IP in the current minute. Returns false when over the limit.
 * Counters live in the database, so the limit holds across processes.
 */
export async function allowIp(db: DB, env: Pick<Env, "RATE_LIMIT_IP_PER_MINUTE">, request: Request, action: LimitedAction, now = new Date()): Promise<boolean> {
  const hits = await hitCounter(db, `ip:${action}:${clientIp(request)}`, 60_000, now);
  return hits <= env.RATE_LIMIT_IP_PER_MINUTE;
}

const HOUR = 3_600_000;
const normalizeKey = (email: string) => email.trim().toLowerCase().slice(0, 254);

export async function accountLocked(db: DB, env: Pick<Env, "RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR">, email: string, now = new Date()): Promise<boolean> {
  return (await peekCounter(db, `acct-fail:${normalizeKey(email)}`, HOUR, now)) >= env.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR;
}

export async function recordFailedLogin(db: DB, email: string, now = new Date()): Promise<number> {
  return hitCounter(db, `acct-fail:${normalizeKey(email)}`, HOUR, now);
}
