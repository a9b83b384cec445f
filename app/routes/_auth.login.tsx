import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { createCookie, json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, PasswordInput, SubmitButton } from "~/components/forms";
import { LinkConfirmPage } from "~/components/link-confirm";
import { getParent } from "~/utils/auth.server";
import { trustedDevice } from "~/utils/device-cookie.server";
import { env } from "#core/env.server";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { useIsSubmitting } from "~/utils/hooks";
import {
  LINK_SIGNIN_INTENT,
  continueSigninLink,
  inspectSigninLink,
  linkFailureMessage,
  type LinkConfirm,
} from "~/utils/link-signin.server";
import { IdTokenError, appleAuthenticator, appleEnabled, clearAppleCookie, googleEnabled } from "~/utils/oauth.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";
import { INVALID_EMAIL_BANNER } from "~/rules/account-texts";
import { checkPassword, completeSignIn, providerSignIn } from "~/utils/signin.server";

export const LoginSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address."),
  password: z.string({ required_error: "Password is required." }),
  redirectTo: z.string().optional(),
  hideGBtn: z.string().optional(),
});

export { INVALID_EMAIL_BANNER };
const PROVIDER_MESSAGE = "We couldn't sign you in with that provider. Please try again.";

/** The stored hide-Google flag (spec 1 §1): set by ?hideGBtn=true, kept for a year on this browser. */
let hideGoogleCookie: ReturnType<typeof createCookie> | undefined;
function hideFlagCookie() {
  const e = env();
  hideGoogleCookie ??= createCookie("kp_hide_google", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 365 * 86_400,
    secure: e.SECURE_COOKIES || e.NODE_ENV === "production",
  });
  return hideGoogleCookie;
}

export const meta: MetaFunction = () => [{ title: "Sign in · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const { request, context } = args;
  const { env: e, log } = context.services;
  const url = new URL(request.url);
  const p = url.searchParams;
  let notice: string | null = null;
  let confirm: LinkConfirm | null = null;

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
  } else {
    // Email verification link or one-time `?token=` (never a session id): only shown here; Continue (POST) uses it.
    const link = await inspectSigninLink(args, p);
    if (link && "confirm" in link) confirm = link.confirm;
    else notice = link?.notice ?? linkFailureMessage(p.get("linkError"));
  }

  if (!notice && !confirm && (await getParent(args))) throw redirect("/kids-device");
  const stored = (await hideFlagCookie().parse(request.headers.get("Cookie"))) === "true";
  const hideParam = p.get("hideGBtn") === "true";
  const error = p.get("error");
  const headers = new Headers();
  if (confirm) headers.set("Cache-Control", "no-store");
  if (hideParam && !stored) headers.append("Set-Cookie", await hideFlagCookie().serialize("true"));
  return json(
    {
      hideGoogle: hideParam || stored,
      googleEnabled: googleEnabled(e),
      appleEnabled: appleEnabled(e, request),
      shopUrl: e.SHOP_URL,
      invalidEmail: error === "invalidEmail",
      notice: notice ?? (error === "provider" ? PROVIDER_MESSAGE : null),
      confirm,
    },
    { headers },
  );
}

export async function action(args: ActionFunctionArgs) {
  const { db, env: e } = args.context.services;
  const formData = await args.request.formData();
  if (formData.get("intent") === LINK_SIGNIN_INTENT) return continueSigninLink(args, formData);
  const submission = parseWithZod(formData, { schema: LoginSchema });
  const fail = (message: string, status: number) => json(submission.reply({ formErrors: [message], hideFields: ["password"] }), { status });
  if (isHoneypotFilled(formData)) return fail(HONEYPOT_MESSAGE, 400);
  if (!(await allowIp(db, e, args.request, "login"))) return fail(RATE_LIMIT_MESSAGE, 429);
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { email, password, redirectTo, hideGBtn } = submission.value;
  // A browser that signed in to this account before counts its failures on its own allowance (device cookie).
  const checked = await checkPassword(args.context.services, email, password, await trustedDevice(args.request, email));
  if (!checked.ok) return fail(checked.message, checked.status);
  const parent = checked.parent;
  return completeSignIn(args, parent, { redirectTo, hideGoogle: hideGBtn === "true" });
}

export default function Login() {
  const { confirm } = useLoaderData<typeof loader>();
  return confirm ? <LinkConfirmPage confirm={confirm} /> : <SignInForm />;
}

function SignInForm() {
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
  // The unknown-email refusal is shown as the spec's banner (with its shop link), not as a plain form error.
  const unknownEmail = invalidEmail || Boolean(form.errors?.includes(INVALID_EMAIL_BANNER));
  const formErrors = form.errors?.filter((e) => e !== INVALID_EMAIL_BANNER);
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Watch and manage your kids' phones.</p>
      {unknownEmail ? (
        <div className="banner banner-warning" role="alert">
          We couldn&apos;t find this email in our system. If you haven&apos;t purchased a device yet, <a href={shopUrl}>click here</a> to
          buy one from our website.
        </div>
      ) : null}
      {notice ? (
        <div className="banner banner-error" role="alert">
          {notice}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={formErrors} id={form.errorId} />
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
