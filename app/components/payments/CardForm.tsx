import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";

export const DEMO_CARD_NOTE =
  "This is a demo card form: nothing is charged. Only the card's brand, last four digits and expiry are kept; the card number and security code are not stored. Try 4242 4242 4242 4242 with any future date.";

/**
 * The local provider's card form (spec: name, card number, expiry month, expiry year, CVC, Submit). It posts to
 * our server; after an error the number and CVC come back empty (the action hides them from its reply).
 */
/** A new key per server reply, so the number and CVC inputs are remounted empty after every failed submit. */
const replyKeys = new WeakMap<object, number>();
let nextReplyKey = 0;
function replyKey(result: object | null | undefined): number {
  if (!result) return 0;
  let k = replyKeys.get(result);
  if (k === undefined) replyKeys.set(result, (k = ++nextReplyKey));
  return k;
}

export function LocalCardForm({ lastResult }: { lastResult?: SubmissionResult<string[]> | null }) {
  const busy = useIsSubmitting({ intent: "add" });
  const [form, fields] = useForm({ lastResult, shouldValidate: "onSubmit" });
  const input = (f: (typeof fields)[keyof typeof fields]) => ({
    ...getInputProps(f, { type: "text" }),
    "aria-invalid": f.errors?.length ? true : undefined,
    "aria-describedby": f.errors?.length ? `${f.id}-error` : undefined,
  });
  return (
    <Form method="post" action="/payment-methods?modal=add" {...getFormProps(form)} className="stack" preventScrollReset>
      <p className="demo-note" role="note">
        {DEMO_CARD_NOTE}
      </p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="add" />
      <Field label="Name on card" id={fields.card_name.id} errors={fields.card_name.errors}>
        <input {...input(fields.card_name)} autoComplete="cc-name" maxLength={100} />
      </Field>
      <Field label="Card number" id={fields.number.id} errors={fields.number.errors}>
        <input
          {...input(fields.number)}
          key={`number-${replyKey(lastResult)}`}
          defaultValue=""
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={23}
        />
      </Field>
      <div className="expiry-row">
        <Field label="Expiry month" id={fields.exp_month.id} errors={fields.exp_month.errors}>
          <input {...input(fields.exp_month)} inputMode="numeric" autoComplete="cc-exp-month" placeholder="MM" maxLength={2} />
        </Field>
        <Field label="Expiry year" id={fields.exp_year.id} errors={fields.exp_year.errors}>
          <input {...input(fields.exp_year)} inputMode="numeric" autoComplete="cc-exp-year" placeholder="YYYY" maxLength={4} />
        </Field>
        <Field label="CVC" id={fields.cvc.id} errors={fields.cvc.errors}>
          <input
            {...input(fields.cvc)}
            key={`cvc-${replyKey(lastResult)}`}
            defaultValue=""
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
          />
        </Field>
      </div>
      <SubmitButton busy={busy}>Submit</SubmitButton>
    </Form>
  );
}
