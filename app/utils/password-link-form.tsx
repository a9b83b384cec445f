import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { FormErrors, PasswordInput, SubmitButton } from "~/components/forms";
import { Honeypot } from "./honeypot";
import { useIsSubmitting } from "./hooks";

/** The password + confirm_password form behind an emailed link (server-validated only, spec 1 §5). */
export function PasswordLinkForm({
  title,
  button,
  iv,
  encryptedData,
  linkError,
  lastResult,
}: {
  title: string;
  button: string;
  iv: string;
  encryptedData: string;
  linkError: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const busy = useIsSubmitting();
  const [form, fields] = useForm({ lastResult });
  return (
    <>
      <h1>{title}</h1>
      {linkError ? (
        <>
          <div className="banner banner-error" role="alert">
            {linkError}
          </div>
          <p className="center">
            <Link to="/forget-password">Request a new link</Link> · <Link to="/login">Back to sign in</Link>
          </p>
        </>
      ) : (
        <Form method="post" {...getFormProps(form)} className="stack">
          <FormErrors errors={form.errors} />
          <Honeypot />
          <input type="hidden" name="iv" value={iv} />
          <input type="hidden" name="encryptedData" value={encryptedData} />
          <PasswordInput
            {...getInputProps(fields.password, { type: "password" })}
            id={fields.password.id}
            label="Password"
            errors={fields.password.errors}
            autoComplete="new-password"
          />
          <PasswordInput
            {...getInputProps(fields.confirm_password, { type: "password" })}
            id={fields.confirm_password.id}
            label="Confirm password"
            errors={fields.confirm_password.errors}
            autoComplete="new-password"
          />
          <SubmitButton busy={busy}>{button}</SubmitButton>
        </Form>
      )}
    </>
  );
}
