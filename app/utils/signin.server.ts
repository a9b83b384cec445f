import { createCookie, redirectDocument, type AppLoadContext } from "@remix-run/node";
import { INVALID_EMAIL_BANNER } from "~/rules/account-texts";
import type { Parent } from "#db/schema";
import { markEmailVerified, setHideGoogle } from "#db/queries/accounts";
import { findParentByEmail } from "#db/queries/parents";
import { safeRedirect, startSession } from "./auth.server";
import { env } from "#core/env.server";
import { mails } from "#core/mail.server";
import { sendMail } from "./mail.server";
import { startOtp } from "#db/queries/otp";
import { hashToken } from "#db/queries/sessions";
import { deviceCookieAfterSignIn, trustedDevice } from "./device-cookie.server";
import { verifyPassword } from "#core/password.server";
import { ACCOUNT_LOCK_MESSAGE, accountLocked, recordFailedLogin } from "#db/queries/rate-limits";

interface Args {
  request: Request;
  context: AppLoadContext;
}

function secureCookies() {
  const e = env();
  return e.SECURE_COOKIES || e.NODE_ENV === "production";
}

/** Remembers, for 10 minutes, which parent passed the password step and is now asked for the emailed code. */
let twoStep: ReturnType<typeof createCookie> | undefined;
export function twoStepCookie() {
  twoStep ??= createCookie("kp_2fa", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: secureCookies(),
    maxAge: 600,
    secrets: [env().SESSION_SECRET],
  });
  return twoStep;
}
export interface TwoStepState {
  pid: string;
  email: string;
  to: string;
  /** Set when no code was mailed for this sign-in (the hour's mails were spent; the latest code still works). */
  notMailed?: true;
}

/** How long after a sign-in /users/handoff may hand the session token to a wrapper. */
export const HANDOFF_TTL_MS = 120_000;

/**
 * Marks the next visit of /users/handoff as the one moment the session token may be handed to a wrapper. Its value
 * names the session it was made for and when it expires (signed, so neither can be changed): a hand-off cookie
 * carried to another session, or kept past its two minutes, hands over nothing.
 */
let handoff: ReturnType<typeof createCookie> | undefined;
export function handoffCookie() {
  handoff ??= createCookie("kp_handoff", {
    httpOnly: true,
    sameSite: "lax",
    path: "/users/handoff",
    secure: secureCookies(),
    maxAge: HANDOFF_TTL_MS / 1000,
    secrets: [env().SESSION_SECRET],
  });
  return handoff;
}
export interface HandoffFlag {
  /** the session's id (the SHA-256 of its token) */
  sid: string;
  /** expiry, ms since the epoch */
  exp: number;
}

/** Whether the hand-off cookie's value was made for the session of `token` and has not expired. */
export function handoffAllowed(flag: unknown, token: string, now = Date.now()): boolean {
  if (!flag || typeof flag !== "object") return false;
  const { sid, exp } = flag as Partial<HandoffFlag>;
  return typeof sid === "string" && sid === hashToken(token) && typeof exp === "number" && now < exp;
}

export function defaultTarget(parent: Parent): string {
  return `/kids-device?useDefaultPassword=${parent.use_default_password ? "true" : "false"}`;
}

/** Starts the session and goes on through the wrapper hand-off page to `to` (a full document load). */
export async function finishSignIn(args: Args, parent: Parent, to: string, extraHeaders: string[] = []): Promise<Response> {
  const { token, setCookie } = await startSession(args, parent.id);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", setCookie);
  const flag: HandoffFlag = { sid: hashToken(token), exp: Date.now() + HANDOFF_TTL_MS };
  headers.append("Set-Cookie", await handoffCookie().serialize(flag));
  // This browser has now signed in to the account: its own allowance of failures from here on (OWASP device cookies).
  headers.append("Set-Cookie", await deviceCookieAfterSignIn(args.request, parent.email));
  for (const c of extraHeaders) headers.append("Set-Cookie", c);
  return redirectDocument(`/users/handoff?to=${encodeURIComponent(safeRedirect(to))}`, { headers });
}

/**
 * After a first factor (password, email link, Google, Apple, one-time token): a parent with two-step
 * verification gets a code by mail and goes to /verify-otp; everyone else is signed in.
 */
export async function completeSignIn(
  args: Args,
  parent: Parent,
  opts: { redirectTo?: string | null; hideGoogle?: boolean } = {},
): Promise<Response> {
  const { db } = args.context.services;
  const to = opts.redirectTo ? safeRedirect(opts.redirectTo) : defaultTarget(parent);
  if (opts.hideGoogle && !parent.hide_google) await setHideGoogle(db, parent.id, true);
  if (parent.two_step_enabled) {
    const state = await beginTwoStep(args, parent, to);
    return redirectDocument(`/verify-otp?email=${encodeURIComponent(parent.email)}`, {
      headers: { "Set-Cookie": await twoStepCookie().serialize(state), "Cache-Control": "no-store" },
    });
  }
  return finishSignIn(args, parent, to);
}

/**
 * The second factor's start, for the sign-in page and POST /api/v1/users/login alike: a code is mailed unless this
 * browser's allowance (its device cookie's, or the untrusted clients') has had too many wrong codes or mails this
 * hour; /verify-otp says which. Returns the state the code's check needs (kept in the kp_2fa cookie).
 */
export async function beginTwoStep(args: Args, parent: Parent, to: string): Promise<TwoStepState> {
  const { db, log } = args.context.services;
  const step = await startOtp(db, args.context.services.env.SESSION_SECRET, parent.id, await trustedDevice(args.request, parent.email));
  if ("code" in step) {
    await sendMail(args.context.services, mails.otp(parent.email, parent.name, step.code));
    log("info", "two-step code sent", { parent: parent.id });
  } else {
    log("info", "two-step code not sent", { parent: parent.id, reason: step.refused });
  }
  const state: TwoStepState = { pid: parent.id, email: parent.email, to };
  if ("refused" in step && step.refused === "notMailed") state.notMailed = true;
  return state;
}

export type PasswordCheck = { ok: true; parent: Parent } | { ok: false; status: 400 | 429; message: string; unknownEmail: boolean };

/**
 * The password step, for the sign-in page and POST /api/v1/users/login alike (after the per-address limit): the
 * account's lock, the password, and a failure counted against this browser's allowance (`device`, its cookie's nonce).
 */
export async function checkPassword(
  services: Args["context"]["services"],
  email: string,
  password: string,
  device: string | null,
): Promise<PasswordCheck> {
  const { db, env: e } = services;
  if (await accountLocked(db, e, email, new Date(), device))
    return { ok: false, status: 429, message: ACCOUNT_LOCK_MESSAGE, unknownEmail: false };
  const parent = await findParentByEmail(db, email);
  const ok = await verifyPassword(parent?.password_hash ?? null, password);
  if (!parent || !ok) {
    await recordFailedLogin(db, email, new Date(), device);
    // Spec 1 §8: an unknown email gets the shop banner (sign-up tells whether an email exists anyway; the per-IP
    // limit holds); a known one with a wrong password the plain message.
    return parent
      ? { ok: false, status: 400, message: "Invalid email or password.", unknownEmail: false }
      : { ok: false, status: 400, message: INVALID_EMAIL_BANNER, unknownEmail: true };
  }
  return { ok: true, parent };
}

export { INVALID_EMAIL_BANNER };

/**
 * A provider (Google, Apple) vouched for an email. A known parent signs in (two-step still applies); an
 * unknown or unverified email goes back to /login with the invalidEmail banner of spec 1 §8.
 */
export async function providerSignIn(
  args: Args,
  identity: { provider: string; email: string | null; emailVerified: boolean },
  extraHeaders: string[] = [],
): Promise<Response> {
  const { db, log } = args.context.services;
  const parent = identity.email && identity.emailVerified ? await findParentByEmail(db, identity.email) : undefined;
  if (!parent) {
    log("info", "provider sign-in with an unknown email", { provider: identity.provider });
    const headers = new Headers();
    for (const c of extraHeaders) headers.append("Set-Cookie", c);
    return redirectDocument("/login?error=invalidEmail", { headers });
  }
  await markEmailVerified(db, parent.id);
  const res = await completeSignIn(args, parent);
  for (const c of extraHeaders) res.headers.append("Set-Cookie", c);
  return res;
}
