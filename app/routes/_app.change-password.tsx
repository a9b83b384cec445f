import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { z } from "zod";
import { PasswordInput, SubmitButton } from "~/components/forms";
import { requireParent } from "~/utils/auth.server";
import { sessionCookie } from "#core/session-cookie.server";
import { useIsSubmitting } from "~/utils/hooks";
import { ChangePasswordFields, PASSWORD_CHANGED_MESSAGE, applyPasswordChange, changePasswordChecks } from "~/utils/password-change.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ChevronIcon } from "~/components/dashboard/icons";

const ChangePasswordSchema = z.object(ChangePasswordFields);

export const meta: MetaFunction = () => [{ title: "Change Password · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  await requireParent(args);
  return null;
}

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const formData = await args.request.formData();
  // The spec leaves these checks to the server (spec 1 §5): they run here, and their messages are shown.
  const submission = await parseWithZod(formData, {
    async: true,
    schema: ChangePasswordSchema.superRefine(changePasswordChecks(parent)),
  });
  if (submission.status !== "success") {
    return json(submission.reply({ hideFields: ["old_password", "new_password", "confirm_password"] }), { status: 400 });
  }
  await applyPasswordChange(args.context.services, parent, submission.value.new_password);
  return redirectWithToast(
    "/login",
    { type: "success", message: PASSWORD_CHANGED_MESSAGE },
    { headers: { "Set-Cookie": await sessionCookie().serialize("", { maxAge: 0 }) } },
  );
}

export default function ChangePassword() {
  const lastResult = useActionData<typeof action>();
  const busy = useIsSubmitting();
  const [form, fields] = useForm({ lastResult });
  return (
    <section className="card narrow">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>Change Password</h1>
      <Form method="post" {...getFormProps(form)} className="stack">
        <PasswordInput
          {...getInputProps(fields.old_password, { type: "password" })}
          id={fields.old_password.id}
          label="Current password"
          errors={fields.old_password.errors}
          autoComplete="current-password"
        />
        <PasswordInput
          {...getInputProps(fields.new_password, { type: "password" })}
          id={fields.new_password.id}
          label="New password"
          errors={fields.new_password.errors}
          autoComplete="new-password"
        />
        <PasswordInput
          {...getInputProps(fields.confirm_password, { type: "password" })}
          id={fields.confirm_password.id}
          label="Confirm password"
          errors={fields.confirm_password.errors}
          autoComplete="new-password"
        />
        <SubmitButton busy={busy}>Change Password</SubmitButton>
      </Form>
      <p className="muted">
        Two-step verification and the devices signed in to your account: <Link to="/account">Account security</Link>
      </p>
    </section>
  );
}
