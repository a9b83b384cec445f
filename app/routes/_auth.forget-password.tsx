import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { hitCounter } from "#db/queries/accounts";
import { findParentByEmail } from "#db/queries/parents";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { useIsSubmitting } from "~/utils/hooks";
import { linkUrl, newLink } from "~/utils/links.server";
import { publicOrigin } from "#core/env.server";
import { mails } from "#core/mail.server";
import { sendMail } from "~/utils/mail.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";

export const ForgotSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address.").max(254),
});

/** The one answer, whether or not the email belongs to an account (no account enumeration). */
export const FORGOT_SENT_MESSAGE =
  "If this email is registered with us, we've sent a link to reset your password. Please check your inbox.";

/** At most this many reset mails per address per hour, so nobody can flood a parent's inbox. */
const MAILS_PER_ADDRESS_PER_HOUR = 5;

export const meta: MetaFunction = () => [{ title: "Forgot password · Kids Portal" }];

export async function action(args: ActionFunctionArgs) {
  const { db, env, log } = args.context.services;
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: ForgotSchema });
  if (isHoneypotFilled(formData))
    return json({ result: submission.reply({ formErrors: [HONEYPOT_MESSAGE] }), sent: false }, { status: 400 });
  if (!(await allowIp(db, env, args.request, "forgot")))
    return json({ result: submission.reply({ formErrors: [RATE_LIMIT_MESSAGE] }), sent: false }, { status: 429 });
  if (submission.status !== "success") return json({ result: submission.reply(), sent: false }, { status: 400 });
  const email = submission.value.email;
  const parent = await findParentByEmail(db, email);
  if (parent && (await hitCounter(db, `forgot-mail:${parent.id}`, 3_600_000)) <= MAILS_PER_ADDRESS_PER_HOUR) {
    // A parent without a password (signed up through Google or Apple) is offered to set one.
    const purpose = parent.password_hash ? "reset-password" : "set-password";
    const link = newLink(env.SESSION_SECRET, { parentId: parent.id, purpose, passwordHash: parent.password_hash });
    const url = linkUrl(publicOrigin(env), purpose === "reset-password" ? "/reset-password" : "/password/set", link);
    const mail =
      purpose === "reset-password"
        ? mails.resetPassword(parent.email, parent.name, url)
        : mails.setPassword(parent.email, parent.name, url);
    // Not awaited: the answer must take the same time whether or not the account exists.
    void sendMail(args.context.services, mail).catch((err) => log("error", "reset mail failed", { error: String(err) }));
  }
  return json({ result: submission.reply({ resetForm: true }), sent: true });
}

export default function ForgetPassword() {
  const data = useActionData<typeof action>();
  const busy = useIsSubmitting();
  const [form, fields] = useForm({ lastResult: data?.result });
  return (
    <>
      <h1>Forgot your password?</h1>
      <p className="muted">Enter your email and we'll send you a link to reset your password.</p>
      {data?.sent ? (
        <div className="banner banner-success" role="status">
          {FORGOT_SENT_MESSAGE}
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={form.errors} />
        <Honeypot />
        <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        </Field>
        <SubmitButton busy={busy}>Send</SubmitButton>
      </Form>
      <p className="center">
        <Link to="/login">Back to sign in</Link>
      </p>
    </>
  );
}
