import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { getParent, safeRedirect } from "~/utils/auth.server";
import { handoffCookie } from "~/utils/signin.server";
import { handoffPage } from "~/utils/wrapper";

/**
 * Right after a sign-in (and only then: a signed cookie scoped to this path, valid 2 minutes, used once),
 * hand the session token to a native wrapper if one is present, then continue to the target page.
 * Without a live session nothing is followed: the visitor goes to /login.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const to = safeRedirect(new URL(request.url).searchParams.get("to"));
  const flag = await handoffCookie().parse(request.headers.get("Cookie"));
  const headers = new Headers({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  headers.append("Set-Cookie", await handoffCookie().serialize("", { maxAge: 0 }));
  const auth = await getParent(args);
  if (!auth) return redirect("/login", { headers });
  if (flag !== "1") return redirect(to, { headers });
  headers.set("Content-Type", "text/html; charset=utf-8");
  return new Response(handoffPage({ token: auth.token, to, nonce: context.cspNonce }), { status: 200, headers });
}
