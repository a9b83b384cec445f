import { json, type ActionFunctionArgs } from "@remix-run/node";
import { createSigninToken } from "#db/queries/accounts";
import { requireParent } from "~/utils/auth.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";

export const SIGNIN_TOKEN_TTL_MS = 2 * 60_000;

export function loader() {
  return json({ respones_msg: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * A signed-in parent (cookie, or the wrapper's Bearer token) asks for a one-time sign-in token, e.g. to open
 * the portal in the phone's browser: /login?token=… works once, within 2 minutes. It is never a session id.
 */
export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const { db, env } = args.context.services;
  if (!(await allowIp(db, env, args.request, "signin-token"))) return json({ respones_msg: RATE_LIMIT_MESSAGE }, { status: 429 });
  const { token, expiresAt } = await createSigninToken(db, parent.id, SIGNIN_TOKEN_TTL_MS);
  return json(
    {
      respones_msg: "Sign-in link created.",
      data: { token, url: `/login?token=${encodeURIComponent(token)}`, expiresAt: expiresAt.toISOString() },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}
