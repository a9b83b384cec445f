import { redirectDocument, type LoaderFunctionArgs } from "@remix-run/node";
import { googleAuthenticator, googleEnabled } from "~/utils/oauth.server";
import { providerSignIn } from "~/utils/signin.server";

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const { env: e, log } = context.services;
  if (!googleEnabled(e)) throw new Response("Not found", { status: 404 });
  try {
    const identity = await (await googleAuthenticator(e)).authenticate("google", request);
    return providerSignIn(args, identity, ["kp_oauth_google=; Path=/users/auth/google; Max-Age=0"]);
  } catch (err) {
    if (err instanceof Response) throw err;
    log("warn", "google sign-in refused", { reason: err instanceof Error ? err.message : String(err) });
    return redirectDocument("/login?error=provider");
  }
}
