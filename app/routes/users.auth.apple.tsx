import type { LoaderFunctionArgs } from "@remix-run/node";
import { appleAuthenticator, appleEnabled } from "~/utils/oauth.server";

/** "Sign in with Apple": redirect to Apple's authorize page (response_mode=form_post, state and nonce in a cookie). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const e = context.services.env;
  if (!appleEnabled(e, request)) throw new Response("Not found", { status: 404 });
  await appleAuthenticator(e).authenticate("apple", request); // throws the redirect
  throw new Response("Not found", { status: 404 });
}
