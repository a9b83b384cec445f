import type { Env } from "../../core/env.server";
import type { DB } from "../index";
import { hitCounter, peekCounter } from "./accounts";

/**
 * Sign-in limits over the database's counters, so they hold across processes and across the two doors a
 * parent signs in by: the web sign-in (app/utils/rate-limit.server.ts reads the address from the request)
 * and the kids app's parent login (device-service/kids-login.ts reads Express's req.ip).
 */
export type LimitedAction = "login" | "otp" | "forgot" | "reset" | "registration" | "set-password" | "signin-token";

export const RATE_LIMIT_MESSAGE = "Too many attempts from your network. Please wait a minute and try again.";
export const ACCOUNT_LOCK_MESSAGE =
  "Too many failed sign-in attempts for this account. Please try again in an hour, or reset your password.";

/** Counts one attempt of `action` from this address in the current minute. Returns false when over the limit. */
export async function allowAddress(
  db: DB,
  env: Pick<Env, "RATE_LIMIT_IP_PER_MINUTE">,
  ip: string,
  action: LimitedAction,
  now = new Date(),
): Promise<boolean> {
  const hits = await hitCounter(db, `ip:${action}:${ip || "unknown"}`, 60_000, now);
  return hits <= env.RATE_LIMIT_IP_PER_MINUTE;
}

const HOUR = 3_600_000;
const normalizeKey = (email: string) => email.trim().toLowerCase().slice(0, 254);

/**
 * Whose allowance a failed sign-in counts against (OWASP's device cookies): a browser that signed in to the account
 * before shows its device cookie (`device`, its nonce) and has an allowance of its own; every other client (a new
 * browser, the kids app, a stranger) shares the account's allowance for untrusted clients. So a stranger's failures
 * lock out strangers, never the parent's known browser.
 */
function failureKey(email: string, device: string | null | undefined): string {
  return device ? `acct-fail-dev:${device}:${normalizeKey(email)}` : `acct-fail:${normalizeKey(email)}`;
}

export async function accountLocked(
  db: DB,
  env: Pick<Env, "RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR">,
  email: string,
  now = new Date(),
  device: string | null = null,
): Promise<boolean> {
  return (await peekCounter(db, failureKey(email, device), HOUR, now)) >= env.RATE_LIMIT_ACCOUNT_FAILURES_PER_HOUR;
}

export async function recordFailedLogin(db: DB, email: string, now = new Date(), device: string | null = null): Promise<number> {
  return hitCounter(db, failureKey(email, device), HOUR, now);
}
