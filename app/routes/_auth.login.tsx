import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { createCookie, json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, PasswordInput, SubmitButton } from "~/components/forms";
import { markEmailVerified, redeemSigninToken } from "../../db/queries/accounts";
import { findParentByEmail, findParentById } from "../../db/queries/parents";
import { getParent } from "~/utils/auth.server";
import { env } from "~/utils/env.server";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { useIsSubmitting } from "~/utils/hooks";
import { LINK_MESSAGES, redeemLink } from "~/utils/links.server";
import { IdTokenError, appleAuthenticator, appleEnabled, clearAppleCookie, googleEnabled } from "~/utils/oauth.server";
import { verifyPassword } from "~/utils/password.server";
import { ACCOUNT_LOCK_MESSAGE, RATE_LIMIT_MESSAGE, accountLocked, allowIp, recordFailedLogin } from "~/utils/rate-limit.server";
import { completeSignIn, providerSignIn } from "~/utils/signin.server";

export const LoginSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address."),
  password: z.string({ required_error: "Password is required." }),
  redirectTo: z.string().optional(),
  hideGBtn: z.string().optional(),
});

/** Spec 1 §8, word for word; 'click here' links to the shop. */
export const INVALID_EMAIL_BANNER = "We couldn't find this email in our system. If you haven't purchased a device yet, click here to buy one from our website.";
const TOKEN_MESSAGE = "This sign-in link has expired or was already used. Please sign in.";
const PROVIDER_MESSAGE = "We couldn't sign you in with that provider. Please try again.";

/** The stored hide-Google flag (spec 1 §1): set by ?hideGBtn=true, kept for a year on this browser. */
let hideGoogleCookie: ReturnType<typeof createCookie> | undefined;
function hideFlagCookie() {
  const e = env();
  hideGoogleCookie ??= createCookie("kp_hide_google", { httpOnly: true, sameSite: "lax", path: "/", maxAge: 365 * 86_400, secure: e.SECURE_COOKIES || e.NODE_ENV === "production" });
  return hideGoogleCookie;
}

export const meta: MetaFunction = () => [{ title: "Sign in · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const { db, env: e, log } = context.services;
  const url = new URL(request.url);
  const p = url.searchParams;
  let notice: string | null = null;

  // Apple's return may also land here (code and id_token, spec 1 §2).
  if (p.get("id_token") || (p.get("code") && p.get("state"))) {
    const clear = await clearAppleCookie(e);
    try {
      const identity = await appleAuthenticator(e).authenticate("apple", request);
      return providerSignIn(args, identity, [clear]);
    } catch (err) {
      if (err instanceof Response) throw err;
      log("warn", "apple sign-in refused", { reason: err instanceof IdTokenError ? err.message : String(err) });
      notice = PROVIDER_MESSAGE;
    }
  } else if (p.has("iv") || p.has("encryptedData")) {
    // Email verification link: verifies the address and signs the parent in.
    const redeemed = await redeemLink(db, e.SESSION_SECRET, p.get("iv"), p.get("encryptedData"), "verify-email");
    const parent = redeemed.ok ? await findParentById(db, redeemed.payload.sub) : undefined;
    if (redeemed.ok && parent) {
      await markEmailVerified(db, parent.id);
      return completeSignIn(args, parent);
    }
    notice = redeemed.ok ? LINK_MESSAGES.invalid : LINK_MESSAGES[redeemed.reason];
  } else if (p.has("token")) {
    // Direct sign-in: a one-time, short-lived token (never a session id).
    const parentId = await redeemSigninToken(db, p.get("token") ?? "");
    const parent = parentId ? await findParentById(db, parentId) : undefined;
    if (parent) return completeSignIn(args, parent);
    notice = TOKEN_MESSAGE;
  }

  if (!notice && (await getParent(args))) throw redirect("/kids-device");
  const stored = (await hideFlagCookie().parse(request.headers.get("Cookie"))) === "true";
  const hideParam = p.get("hideGBtn") === "true";
  const error = p.get("error");
  return json(
    {
      hideGoogle: hideParam || stored,
      googleEnabled: googleEnabled(e),
      appleEnabled: appleEnabled(e, request),
      shopUrl: e.SHOP_URL,
      invalidEmail: error === "invalidEmail",
      notice: notice ?? (error === "provider" ? PROVIDER_MESSAGE : null),
    },
    { headers: hideParam && !stored ? { "Set-Cookie": await hideFlagCookie().serialize("true") } : undefined },
  );
}

export async function action(args: ActionFunctionArgs) {
  const { db, env: e } = args.context.services;
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: LoginSchema });
  const fail = (message: string, status: number) => json(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status });
  if (isHoneypotFilled(formData)) return fail(HONEYPOT_MESSAGE, 400);
  if (!(await allowIp(db, e, args.request, "login"))) return fail(RATE_LIMIT_MESSAGE, 429);
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { email, password, redirectTo, hideGBtn } = submission.value;
  if (await accountLocked(db, e, email)) return fail(ACCOUNT_LOCK_MESSAGE, 429);
  const parent = await findParentByEmail(db, email);
  const ok = await verifyPassword(parent?.password_hash ?? null, password);
  if (!parent || !ok) {
    await recordFailedLogin(db, email);
    return fail("Invalid email or password.", 400);
  }
  return completeSignIn(args, parent, { redirectTo, hideGoogle: hideGBtn === "true" });
}

export default function Login() {
  const { hideGoogle, googleEnabled, appleEnabled, shopUrl, invalidEmail, notice } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useIsSubmitting();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const showGoogle = googleEnabled && !hideGoogle;
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Watch and manage your kids' phones.</p>
      {invalidEmail ? (
        <div className="banner banner-warning" role="alert">
          We couldn&apos;t find this email in our system. If you haven&apos;t purchased a device yet, <a href={shopUrl}>click here</a> to buy one from our website.
        </div>
      ) : null}
      {notice ? (
        <div className="banner banner-error" role="alert">
          {notice}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={form.errors} id={form.errorId} />
        <Honeypot />
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
        <input type="hidden" name="hideGBtn" value={hideGoogle ? "true" : ""} />
        <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" required={false} />
        </Field>
        <PasswordInput
          {...getInputProps(fields.password, { type: "password" })}
          id={fields.password.id}
          label="Password"
          errors={fields.password.errors}
          autoComplete="current-password"
          required={false}
        />
        <div className="row-end">
          <Link to="/forget-password">Forgot your password?</Link>
        </div>
        <SubmitButton busy={busy}>{busy ? "Signing in…" : "Sign in"}</SubmitButton>
      </Form>
      {showGoogle || appleEnabled ? (
        <div className="oauth-buttons">
          {showGoogle ? (
            <a className="btn btn-outline" href="/users/auth/google">
              Sign in with Google
            </a>
          ) : null}
          {appleEnabled ? (
            <a className="btn btn-outline" href="/users/auth/apple">
              Sign in with Apple
            </a>
          ) : null}
        </div>
      ) : null}
      <p className="center">
        New here? <Link to="/registration">Create an account</Link>
      </p>
    </>
  );
}
