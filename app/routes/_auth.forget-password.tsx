import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { useIsSubmitting } from "~/utils/hooks";
import { FORGOT_SENT_MESSAGE, ForgotSchema } from "~/rules/account-texts";
import { sendPasswordLink } from "~/utils/forgot-password.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";

export { ForgotSchema, FORGOT_SENT_MESSAGE } from "~/rules/account-texts";

export const meta: MetaFunction = () => [{ title: "Forgot password · Kids Portal" }];

export async function action(args: ActionFunctionArgs) {
  const { db, env } = args.context.services;
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: ForgotSchema });
  if (isHoneypotFilled(formData))
    return json({ result: submission.reply({ formErrors: [HONEYPOT_MESSAGE] }), sent: false }, { status: 400 });
  if (!(await allowIp(db, env, args.request, "forgot")))
    return json({ result: submission.reply({ formErrors: [RATE_LIMIT_MESSAGE] }), sent: false }, { status: 429 });
  if (submission.status !== "success") return json({ result: submission.reply(), sent: false }, { status: 400 });
  await sendPasswordLink(args.context.services, submission.value.email);
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
