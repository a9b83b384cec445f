import { redirect, type AppLoadContext } from "@remix-run/node";
import { markEmailVerified, peekSigninToken, redeemSigninToken } from "#db/queries/accounts";
import { findParentById } from "#db/queries/parents";
import { hashToken, revokeSession } from "#db/queries/sessions";
import type { Parent } from "#db/schema";
import { getParent } from "./auth.server";
import { LINK_MESSAGES, checkLink, redeemLink } from "./links.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "./rate-limit.server";
import { completeSignIn } from "./signin.server";
import { endStreams } from "./sse.server";

/**
 * Links that sign someone in (the one-time `?token=` and the email-verification link) never do it on a GET:
 * a cross-site page could otherwise sign a visitor into someone else's account (login CSRF). The GET shows
 * whose account it is and a Continue button; the POST from that button uses the link and signs in.
 */
interface Args {
  request: Request;
  context: AppLoadContext;
}

export const LINK_SIGNIN_INTENT = "link-signin";
export const TOKEN_MESSAGE = "This sign-in link has expired or was already used. Please sign in.";

/** What the Continue page shows: the link's account, the parent signed in now (if any), the form's fields. */
export interface LinkConfirm {
  email: string;
  signedInAs: string | null;
  fields: Record<string, string>;
}

const FAILURES: Record<string, string> = { ...LINK_MESSAGES, token: TOKEN_MESSAGE, rate: RATE_LIMIT_MESSAGE };

/** The message for `/login?linkError=…` (where a failed Continue lands), or null. */
export function linkFailureMessage(key: string | null): string | null {
  return key && Object.hasOwn(FAILURES, key) ? FAILURES[key] : null;
}

/** GET: what the link in these parameters would do, without using it. Null when there is no link. */
export async function inspectSigninLink(
  args: Args,
  params: URLSearchParams,
): Promise<{ confirm: LinkConfirm } | { notice: string } | null> {
  const { db, env } = args.context.services;
  let parent: Parent | undefined;
  let fields: Record<string, string>;
  if (params.has("iv") || params.has("encryptedData")) {
    const checked = await checkLink(db, env.SESSION_SECRET, params.get("iv"), params.get("encryptedData"), "verify-email");
    if (!checked.ok) return { notice: LINK_MESSAGES[checked.reason] };
    parent = await findParentById(db, checked.payload.sub);
    if (!parent) return { notice: LINK_MESSAGES.invalid };
    fields = { intent: LINK_SIGNIN_INTENT, iv: params.get("iv") ?? "", encryptedData: params.get("encryptedData") ?? "" };
  } else if (params.has("token")) {
    const token = params.get("token") ?? "";
    const parentId = await peekSigninToken(db, token);
    parent = parentId ? await findParentById(db, parentId) : undefined;
    if (!parent) return { notice: TOKEN_MESSAGE };
    fields = { intent: LINK_SIGNIN_INTENT, token };
  } else {
    return null;
  }
  const current = await getParent(args);
  return { confirm: { email: parent.email, signedInAs: current?.parent.email ?? null, fields } };
}

/** Uses an email-verification link (once): its parent, now with the email verified. */
export async function redeemVerifyLink(
  args: Args,
  iv: string | null,
  encryptedData: string | null,
): Promise<{ ok: true; parent: Parent } | { ok: false; reason: keyof typeof LINK_MESSAGES }> {
  const { db, env } = args.context.services;
  const redeemed = await redeemLink(db, env.SESSION_SECRET, iv, encryptedData, "verify-email");
  if (!redeemed.ok) return { ok: false, reason: redeemed.reason };
  const parent = await findParentById(db, redeemed.payload.sub);
  if (!parent) return { ok: false, reason: "invalid" };
  await markEmailVerified(db, parent.id);
  return { ok: true, parent };
}

/**
 * POST from the Continue button: use the link (once) and sign in (two-step still applies). A different
 * parent signed in on this browser is signed out: the person chose to continue.
 */
export async function continueSigninLink(args: Args, form: FormData): Promise<Response> {
  const { db, env } = args.context.services;
  const fail = (key: string) => redirect(`/login?linkError=${key}`, { headers: { "Cache-Control": "no-store" } });
  if (!(await allowIp(db, env, args.request, "login"))) return fail("rate");
  const value = (name: string) => {
    const v = form.get(name);
    return typeof v === "string" ? v : null;
  };
  let parent: Parent | undefined;
  if (value("iv") !== null || value("encryptedData") !== null) {
    const used = await redeemVerifyLink(args, value("iv"), value("encryptedData"));
    if (!used.ok) return fail(used.reason);
    parent = used.parent;
  } else {
    const parentId = await redeemSigninToken(db, value("token") ?? "");
    parent = parentId ? await findParentById(db, parentId) : undefined;
    if (!parent) return fail("token");
  }
  const current = await getParent(args);
  if (current && current.parent.id !== parent.id) {
    await revokeSession(db, current.token);
    await endStreams(args.context.services, { sessionIds: [hashToken(current.token)] }, "signed-out");
  }
  return completeSignIn(args, parent);
}
