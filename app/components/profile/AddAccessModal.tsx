import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { inviteAddress, usernameProblem } from "~/rules/delegation";
import { useIsSubmitting } from "~/utils/hooks";
import type { ProfileData } from "./ProfileView";

/**
 * The add modal (?modal=add): email username (the domain is the parent's own, shown beside it), name, allowed
 * kids, access level (full). Checked by the server; its message ('Please fill all required fields.') is shown.
 */
export function AddAccessModal({ data, lastResult }: { data: ProfileData; lastResult: SubmissionResult<string[]> | undefined }) {
  const busy = useIsSubmitting({ intent: "add" });
  const [form, fields] = useForm({ lastResult, shouldValidate: "onSubmit" });
  const submitted = (lastResult?.initialValue ?? {}) as { username?: string; allowedKids?: string | string[] };
  const [username, setUsername] = useState(typeof submitted.username === "string" ? submitted.username : "");
  const chosen = new Set([submitted.allowedKids ?? []].flat());
  const { defaultValue: _ignored, ...usernameInput } = getInputProps(fields.username, { type: "text" });
  const address = username.trim() && !usernameProblem(username) ? inviteAddress(username, data.parent.email) : null;
  return (
    <Modal title="Add Access" closeHref="/parent-profile">
      {data.ownKids.length === 0 ? (
        <p>You can give access to your own kids once you have added one.</p>
      ) : (
        <Form method="post" action="/parent-profile?modal=add" {...getFormProps(form)} className="stack" noValidate preventScrollReset>
          <input type="hidden" name="intent" value="add" />
          <FormErrors errors={form.errors} id="add-access-errors" />
          <Field
            label="Email username"
            id={fields.username.id}
            errors={fields.username.errors}
            hint={
              address ? (
                <span data-testid="invite-address">We&apos;ll invite {address}</span>
              ) : (
                `Only the part before @${data.parent.domain}.`
              )
            }
          >
            <div className="username-row">
              <input {...usernameInput} autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
              <span className="username-domain">@{data.parent.domain}</span>
            </div>
          </Field>
          <Field label="Name" id={fields.name.id} errors={fields.name.errors}>
            <input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
          </Field>
          <fieldset className="kid-checks">
            <legend>Allowed kids</legend>
            {data.ownKids.map((k) => (
              <label key={k.id} className="choice">
                <input type="checkbox" name={fields.allowedKids.name} value={k.id} defaultChecked={chosen.has(k.id)} />
                {k.name}
              </label>
            ))}
          </fieldset>
          <Field label="Access level" id="access-level">
            <select id="access-level" name={fields.accessLevel.name} defaultValue="full">
              <option value="full">Full</option>
            </select>
          </Field>
          <div>
            <SubmitButton busy={busy}>Add Access</SubmitButton>
          </div>
        </Form>
      )}
    </Modal>
  );
}
