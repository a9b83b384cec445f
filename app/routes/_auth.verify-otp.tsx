import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { findParentById, normalizeEmail } from "#db/queries/parents";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { useIsSubmitting } from "~/utils/hooks";
import { OTP_MESSAGES, otpLocked, verifyOtp } from "#db/queries/otp";
import { trustedDevice } from "~/utils/device-cookie.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";
import { finishSignIn, twoStepCookie, type TwoStepState } from "~/utils/signin.server";

// Spec 1 §5: numeric, at most 4.
export const OtpSchema = z.object({
  otp: z
    .string({ required_error: "Please enter the code we emailed you." })
    .trim()
    .regex(/^\d{1,4}$/, "The code is numeric, at most 4 digits."),
});

const EXPIRED_STEP = "Your sign-in has expired. Please sign in again to get a new code.";

export const meta: MetaFunction = () => [{ title: "Verify code · Kids Portal" }];

async function pendingState(request: Request, email: string | null): Promise<TwoStepState | null> {
  const state = (await twoStepCookie().parse(request.headers.get("Cookie"))) as TwoStepState | null;
  if (!state?.pid || !email || normalizeEmail(email) !== state.email) return null;
  return state;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const email = new URL(request.url).searchParams.get("email");
  const state = await pendingState(request, email);
  // Too many wrong codes this hour (for this browser's allowance): no code is checked, so no form is shown.
  const locked = state ? await otpLocked(context.services.db, state.pid, await trustedDevice(request, state.email)) : false;
  return json(
    { email: email ?? "", expired: !state, locked, notMailed: Boolean(state?.notMailed) },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action(args: ActionFunctionArgs) {
  const { db, env } = args.context.services;
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: OtpSchema });
  const fail = (message: string, status = 400, extra: { voided?: boolean } = {}) =>
    json({ result: submission.reply({ formErrors: [message], hideFields: ["otp"] }), ...extra }, { status });
  if (isHoneypotFilled(formData)) return fail(HONEYPOT_MESSAGE);
  if (!(await allowIp(db, env, args.request, "otp"))) return fail(RATE_LIMIT_MESSAGE, 429);
  if (submission.status !== "success") return json({ result: submission.reply(), voided: false }, { status: 400 });
  const state = await pendingState(args.request, new URL(args.request.url).searchParams.get("email"));
  if (!state) return fail(EXPIRED_STEP, 400, { voided: true });
  const device = await trustedDevice(args.request, state.email);
  const result = await verifyOtp(db, env.SESSION_SECRET, state.pid, submission.value.otp, new Date(), device);
  if (!result.ok) {
    if (result.reason === "wrong") return fail(OTP_MESSAGES.wrong(result.triesLeft));
    return fail(OTP_MESSAGES[result.reason], 400, { voided: true });
  }
  const parent = await findParentById(db, state.pid);
  if (!parent) return fail(EXPIRED_STEP, 400, { voided: true });
  return finishSignIn(args, parent, state.to, [await twoStepCookie().serialize("", { maxAge: 0 })]);
}

export default function VerifyOtp() {
  const { email, expired, locked, notMailed } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useIsSubmitting();
  const [form, fields] = useForm({ lastResult: data?.result });
  const closed = expired || locked;
  const voided = closed || (data && "voided" in data && data.voided);
  return (
    <>
      <h1>Check your email</h1>
      {closed ? (
        <div className="banner banner-error" role="alert">
          {expired ? EXPIRED_STEP : OTP_MESSAGES.locked}
        </div>
      ) : notMailed ? (
        <div className="banner banner-warning" role="status">
          {OTP_MESSAGES.notMailed}
        </div>
      ) : (
        <p className="muted">We sent a 4-digit code to {email}. It is valid for 10 minutes.</p>
      )}
      {!closed ? (
        <Form method="post" {...getFormProps(form)} className="stack">
          <FormErrors errors={form.errors} />
          <Honeypot />
          <Field label="Code" id={fields.otp.id} errors={fields.otp.errors}>
            <input
              {...getInputProps(fields.otp, { type: "text" })}
              className="otp-input"
              inputMode="numeric"
              pattern="[0-9]*"
              maxLength={4}
              autoComplete="one-time-code"
            />
          </Field>
          <SubmitButton busy={busy}>Verify</SubmitButton>
        </Form>
      ) : null}
      <p className="center">{voided ? <Link to="/login">Sign in again</Link> : <Link to="/login">Back to sign in</Link>}</p>
    </>
  );
}
