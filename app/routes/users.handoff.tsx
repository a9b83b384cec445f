import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getParent, safeRedirect } from "~/utils/auth.server";
import { handoffAllowed, handoffCookie } from "~/utils/signin.server";
import { handoffPage } from "~/utils/wrapper";

/**
 * Right after a sign-in (and only then: a signed cookie scoped to this path, made for that sign-in's session, valid
 * 2 minutes by its own signed expiry, used once), hand the session token to a native wrapper if one is present, then
 * continue to the target page. Without a live session nothing is followed: the visitor goes to /login.
 * Referrer-Policy: no-referrer comes from securityHeaders (a page whose URL or body carries a secret).
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const to = safeRedirect(new URL(request.url).searchParams.get("to"));
  const flag: unknown = await handoffCookie().parse(request.headers.get("Cookie"));
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await handoffCookie().serialize("", { maxAge: 0 }));
  const auth = await getParent(args);
  if (!auth) return redirect("/login", { headers });
  if (!handoffAllowed(flag, auth.token)) return redirect(to, { headers });
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(handoffPage({ token: auth.token, to, nonce: context.cspNonce }), { status: 200, headers });
}
