import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";

/**
 * A link that signs someone in (one-time token, email verification) lands here: whose account it is, who is
 * signed in now, and a Continue button that posts (works without JavaScript). Nothing happens until it is pressed.
 */
export function LinkConfirmPage({ confirm }: { confirm: { email: string; signedInAs: string | null; fields: Record<string, string> } }) {
  const busy = useIsSubmitting();
  const { email, signedInAs, fields } = confirm;
  const verifying = "encryptedData" in fields;
  const other = signedInAs && signedInAs !== email ? signedInAs : null;
  return (
    <>
      <h1>{verifying ? "Verify your email and sign in" : "Sign in with this link"}</h1>
      <p>
        Continue to {verifying ? "verify this email address and sign in to" : "sign in to"} the Kids Portal account of{" "}
        <strong>{email}</strong>.
      </p>
      {other ? (
        <div className="banner banner-warning" role="alert">
          You are signed in as <strong>{other}</strong>. If you continue, you will be signed out of that account and signed in as {email}.
        </div>
      ) : signedInAs ? (
        <p className="muted">You are already signed in as {email}.</p>
      ) : null}
      <Form method="post" className="stack">
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <SubmitButton busy={busy}>{busy ? "Signing in…" : "Continue"}</SubmitButton>
      </Form>
      <p className="center">
        {other ? <Link to="/kids-device">Stay signed in as {other}</Link> : <Link to="/login">Not your account? Sign in another way</Link>}
      </p>
    </>
  );
}
