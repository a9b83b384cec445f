import { createCookie, redirectDocument, type AppLoadContext } from "@remix-run/node";
import type { Parent } from "#db/schema";
import { markEmailVerified, setHideGoogle } from "#db/queries/accounts";
import { findParentByEmail } from "#db/queries/parents";
import { safeRedirect, startSession } from "./auth.server";
import { env } from "#core/env.server";
import { mails } from "#core/mail.server";
import { sendMail } from "./mail.server";
import { issueOtp } from "#db/queries/otp";

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
}

/** Marks the next visit of /users/handoff as the one moment the session token may be handed to a wrapper. */
let handoff: ReturnType<typeof createCookie> | undefined;
export function handoffCookie() {
  handoff ??= createCookie("kp_handoff", {
    httpOnly: true,
    sameSite: "lax",
    path: "/users/handoff",
    secure: secureCookies(),
    maxAge: 120,
    secrets: [env().SESSION_SECRET],
  });
  return handoff;
}

export function defaultTarget(parent: Parent): string {
  return `/kids-device?useDefaultPassword=${parent.use_default_password ? "true" : "false"}`;
}

/** Starts the session and goes on through the wrapper hand-off page to `to` (a full document load). */
export async function finishSignIn(args: Args, parent: Parent, to: string, extraHeaders: string[] = []): Promise<Response> {
  const { setCookie } = await startSession(args, parent.id);
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", setCookie);
  headers.append("Set-Cookie", await handoffCookie().serialize("1"));
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
  const { db, log } = args.context.services;
  const to = opts.redirectTo ? safeRedirect(opts.redirectTo) : defaultTarget(parent);
  if (opts.hideGoogle && !parent.hide_google) await setHideGoogle(db, parent.id, true);
  if (parent.two_step_enabled) {
    const code = await issueOtp(db, env().SESSION_SECRET, parent.id);
    await sendMail(args.context.services, mails.otp(parent.email, parent.name, code));
    log("info", "two-step code sent", { parent: parent.id });
    const state: TwoStepState = { pid: parent.id, email: parent.email, to };
    return redirectDocument(`/verify-otp?email=${encodeURIComponent(parent.email)}`, {
      headers: { "Set-Cookie": await twoStepCookie().serialize(state), "Cache-Control": "no-store" },
    });
  }
  return finishSignIn(args, parent, to);
}

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
