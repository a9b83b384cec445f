import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, PasswordInput, SubmitButton } from "~/components/forms";
import { createParent, findParentByEmail } from "#db/queries/parents";
import { getParent, startSession } from "~/utils/auth.server";
import { Honeypot, HONEYPOT_MESSAGE, isHoneypotFilled } from "~/utils/honeypot";
import { linkUrl, newLink } from "~/utils/links.server";
import { publicOrigin } from "#core/env.server";
import { mails } from "#core/mail.server";
import { sendMail } from "~/utils/mail.server";
import { RATE_LIMIT_MESSAGE } from "#db/queries/rate-limits";
import { allowIp } from "~/utils/rate-limit.server";
import { useIsSubmitting } from "~/utils/hooks";
import { hashPassword, passwordProblem } from "#core/password.server";
import { redirectWithToast } from "~/utils/toast.server";
import { isTimeZone } from "#core/zoned-time";
import { BrowserTimeZoneInput } from "~/components/time-zone/BrowserTimeZone";

export const RegistrationSchema = z.object({
  parentName: z
    .string({ required_error: "Parent name is required." })
    .trim()
    .min(1, "Parent name is required.")
    .max(80, "Parent name must be at most 80 characters."),
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address.").max(254),
  password: z.string({ required_error: "Password is required." }).superRefine((v, ctx) => {
    const problem = passwordProblem(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
});

export const meta: MetaFunction = () => [{ title: "Sign up · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  if (await getParent(args)) throw redirect("/kids-device");
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const { db, env } = args.context.services;
  const formData = await args.request.formData();
  if (isHoneypotFilled(formData)) {
    return json(
      parseWithZod(formData, { schema: RegistrationSchema }).reply({ formErrors: [HONEYPOT_MESSAGE], hideFields: ["password"] }),
      { status: 400 },
    );
  }
  if (!(await allowIp(db, env, args.request, "registration"))) {
    return json(
      parseWithZod(formData, { schema: RegistrationSchema }).reply({ formErrors: [RATE_LIMIT_MESSAGE], hideFields: ["password"] }),
      { status: 429 },
    );
  }
  const submission = await parseWithZod(formData, {
    async: true,
    schema: RegistrationSchema.superRefine(async (v, ctx) => {
      if (await findParentByEmail(db, v.email)) {
        ctx.addIssue({ code: "custom", path: ["email"], message: "An account with this email already exists. Please sign in instead." });
      }
    }),
  });
  if (submission.status !== "success") return json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const { parentName, email, password } = submission.value;
  let parent;
  try {
    // The browser's time zone, when JavaScript sent one Intl knows; else the default (UTC), changed on the profile.
    const zone = formData.get("timeZone");
    parent = await createParent(db, {
      email,
      name: parentName,
      passwordHash: await hashPassword(password),
      timeZone: isTimeZone(zone) ? zone : undefined,
    });
  } catch {
    // A concurrent sign-up with the same email lost the race on the unique index.
    return json(
      submission.reply({
        fieldErrors: { email: ["An account with this email already exists. Please sign in instead."] },
        hideFields: ["password"],
      }),
      { status: 400 },
    );
  }
  const link = newLink(env.SESSION_SECRET, { parentId: parent.id, purpose: "verify-email" });
  await sendMail(args.context.services, mails.verifyEmail(parent.email, parent.name, linkUrl(publicOrigin(env), "/login", link)));
  // The new parent is signed in at once (issue 11 item 5): straight to the dashboard, where they add a kid.
  const { setCookie } = await startSession(args, parent.id);
  return redirectWithToast(
    "/kids-device",
    { type: "success", message: "Welcome! Your account has been created. We've sent you a link to verify your email address." },
    { headers: { "Set-Cookie": setCookie } },
  );
}

export default function Registration() {
  const lastResult = useActionData<typeof action>();
  const busy = useIsSubmitting();
  // Sign-up is validated by the server only (spec 1 §5): its message is shown.
  const [form, fields] = useForm({ lastResult });
  return (
    <>
      <h1>Create your account</h1>
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors errors={form.errors} />
        <Honeypot />
        <BrowserTimeZoneInput />
        <Field label="Parent name" id={fields.parentName.id} errors={fields.parentName.errors}>
          <input {...getInputProps(fields.parentName, { type: "text" })} autoComplete="name" />
        </Field>
        <Field label="Email" id={fields.email.id} errors={fields.email.errors}>
          <input {...getInputProps(fields.email, { type: "email" })} autoComplete="email" />
        </Field>
        <PasswordInput
          {...getInputProps(fields.password, { type: "password" })}
          id={fields.password.id}
          label="Password"
          errors={fields.password.errors}
          autoComplete="new-password"
        />
        <SubmitButton busy={busy}>Sign up</SubmitButton>
      </Form>
      <p className="center">
        Already have an account? <Link to="/login">Back to sign in</Link>
      </p>
    </>
  );
}
