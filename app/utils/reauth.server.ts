import type { AppLoadContext } from "@remix-run/node";
import { verifyPassword } from "#core/password.server";
import type { Parent } from "#db/schema";
import { ACCOUNT_LOCK_MESSAGE, RATE_LIMIT_MESSAGE, accountLocked, recordFailedLogin } from "#db/queries/rate-limits";
import { trustedDevice } from "./device-cookie.server";
import { allowIp } from "./rate-limit.server";

interface Args {
  request: Request;
  context: AppLoadContext;
}

export const REAUTH_MESSAGES = {
  missing: "Please enter your password.",
  wrong: "The password is incorrect.",
  noPassword: "Your account has no password yet. Sign out, use “Forgot your password?” to set one, then try again.",
} as const;

/**
 * A signed-in parent proves it is still them before a change that weakens the account (turning two-step off): the
 * password, under the sign-in's limits — the per-address counter ("login") and the account's failure allowance (this
 * browser's device cookie, or the untrusted clients'), where a wrong password counts as a failed sign-in.
 * Returns null when the password is right, else the message to show and its HTTP status.
 */
export async function confirmPassword(
  args: Args,
  parent: Parent,
  password: string | undefined,
): Promise<{ message: string; status: number } | null> {
  const { db, env } = args.context.services;
  if (!parent.password_hash) return { message: REAUTH_MESSAGES.noPassword, status: 400 };
  if (!password) return { message: REAUTH_MESSAGES.missing, status: 400 };
  if (!(await allowIp(db, env, args.request, "login"))) return { message: RATE_LIMIT_MESSAGE, status: 429 };
  const device = await trustedDevice(args.request, parent.email);
  if (await accountLocked(db, env, parent.email, new Date(), device)) return { message: ACCOUNT_LOCK_MESSAGE, status: 429 };
  if (await verifyPassword(parent.password_hash, password)) return null;
  await recordFailedLogin(db, parent.email, new Date(), device);
  return { message: REAUTH_MESSAGES.wrong, status: 400 };
}
