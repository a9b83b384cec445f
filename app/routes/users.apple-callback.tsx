import { redirectDocument, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { IdTokenError, appleAuthenticator, clearAppleCookie } from "~/utils/oauth.server";
import { providerSignIn } from "~/utils/signin.server";

/**
 * Apple's return. POST (form_post: code, id_token, state) is the normal case; a GET with a code is accepted too.
 * The id_token is verified against Apple's keys: signature, issuer, audience, nonce and expiry.
 */
async function handle(args: LoaderFunctionArgs | ActionFunctionArgs) {
  const { env: e, log } = args.context.services;
  const clear = await clearAppleCookie(e);
  if (!e.APPLE_CLIENT_ID) throw new Response("Not found", { status: 404 });
  const query = new URL(args.request.url).searchParams;
  if (args.request.method === "GET" && !query.get("code") && !query.get("id_token")) {
    return redirectDocument("/login?error=provider", { headers: { "Set-Cookie": clear } });
  }
  try {
    const identity = await appleAuthenticator(e).authenticate("apple", args.request);
    return providerSignIn(args, identity, [clear]);
  } catch (err) {
    if (err instanceof Response) throw err;
    log("warn", "apple sign-in refused", { reason: err instanceof IdTokenError ? err.message : String(err) });
    return redirectDocument("/login?error=provider", { headers: { "Set-Cookie": clear } });
  }
}

export const loader = (args: LoaderFunctionArgs) => handle(args);
export const action = (args: ActionFunctionArgs) => handle(args);
