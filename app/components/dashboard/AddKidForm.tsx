import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod, getZodConstraint } from "@conform-to/zod";
import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/forms";
import { useIsSubmitting } from "~/utils/hooks";
import { KidFields } from "./KidFields";
import { addKidSchema } from "./schemas";

/**
 * A kid's details, then the phone's QR code: where a parent without any kid starts, and the "Add a kid" popup
 * (which names the form by its own heading, so `heading` is false there).
 */
export function AddKidForm({
  lastResult,
  currentYear,
  heading = true,
  labelledBy = "add-kid-title",
}: {
  lastResult: unknown;
  currentYear: number;
  heading?: boolean;
  labelledBy?: string;
}) {
  const busy = useIsSubmitting({ intent: "add-kid" });
  const schema = addKidSchema(currentYear);
  const [form, fields] = useForm({
    id: "add-kid",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    lastResult: lastResult as any,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  return (
    <Form method="post" {...getFormProps(form)} className="stack add-kid" aria-labelledby={labelledBy}>
      {heading ? <h2 id={labelledBy}>Add your kid</h2> : null}
      <input type="hidden" name="intent" value="add-kid" />
      <KidFields fields={fields} nameLabel="Kid's name" />
      <SubmitButton busy={busy} className="btn">
        Add kid
      </SubmitButton>
    </Form>
  );
}
