import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { Field, PasswordInput, SubmitButton } from "~/components/forms";
import { findParentByEmail } from "../../db/queries/parents";
import { getParent, safeRedirect, startSession } from "~/utils/auth.server";
import { useIsSubmitting } from "~/utils/hooks";
import { verifyPassword } from "~/utils/password.server";

export const LoginSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address."),
  password: z.string({ required_error: "Password is required." }),
  redirectTo: z.string().optional(),
});

export const meta: MetaFunction = () => [{ title: "Sign in · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  if (await getParent(args)) throw redirect("/kids-device");
  const url = new URL(args.request.url);
  const hideGoogle = url.searchParams.get("hideGBtn") === "true";
  return json({ hideGoogle, googleEnabled: false, appleEnabled: false });
}

export async function action(args: ActionFunctionArgs) {
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: LoginSchema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const { email, password, redirectTo } = submission.value;
  const parent = await findParentByEmail(args.context.services.db, email);
  const ok = await verifyPassword(parent?.password_hash ?? null, password);
  if (!parent || !ok) {
    return json(submission.reply({ formErrors: ["Invalid email or password."], hideFields: ["password"] }), { status: 400 });
  }
  const { setCookie } = await startSession(args, parent.id);
  const target = redirectTo ? safeRedirect(redirectTo) : `/kids-device?useDefaultPassword=${parent.use_default_password ? "true" : "false"}`;
  return redirect(target, { headers: { "Set-Cookie": setCookie } });
}

export default function Login() {
  const { hideGoogle, googleEnabled, appleEnabled } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useIsSubmitting();
  const [form, fields] = useForm({
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">Watch and manage your kids' phones.</p>
      <Form method="post" {...getFormProps(form)} className="stack">
        {form.errors?.length ? (
          <div className="banner banner-error" role="alert" id={form.errorId}>
            {form.errors.join(" ")}
          </div>
        ) : null}
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? ""} />
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
      {(googleEnabled && !hideGoogle) || appleEnabled ? (
        <div className="oauth-buttons">
          {googleEnabled && !hideGoogle ? (
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
