import type { LoaderFunctionArgs } from "@remix-run/node";
import { googleAuthenticator, googleEnabled } from "~/utils/oauth.server";

/** "Sign in with Google": redirect to Google (remix-auth-oauth2 keeps state and the PKCE verifier in a cookie). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const e = context.services.env;
  if (!googleEnabled(e)) throw new Response("Not found", { status: 404 });
  const auth = await googleAuthenticator(e);
  await auth.authenticate("google", request); // throws the redirect
  throw new Response("Not found", { status: 404 });
}
