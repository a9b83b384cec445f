import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod, getZodConstraint } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { Field, SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { PICTURE_SIDE } from "~/rules/picture";
import { useIsSubmitting } from "~/utils/hooks";
import { scalePicture } from "~/utils/picture-scale";
import { KidFields } from "../KidFields";
import { editKidSchema } from "../schemas";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/**
 * ?modal=edit: the kid's name, birth month and year, and picture. With JavaScript a chosen photo is scaled down
 * in the browser before Save can send it (issue 52); without it the photo is sent as chosen and re-encoded on the
 * server. One over 20 MB that could not be scaled is answered in the form, nothing else lost.
 */
export function EditKidModal({ data, lastResult }: { data: DashData; lastResult: unknown }) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "edit-kid" });
  const [preparing, setPreparing] = useState(false);
  const shrink = async (input: HTMLInputElement) => {
    const chosen = input.files?.[0];
    if (!chosen) return;
    setPreparing(true);
    try {
      const smaller = await scalePicture(chosen, PICTURE_SIDE);
      if (smaller && input.files?.[0] === chosen) {
        const files = new DataTransfer();
        files.items.add(smaller);
        input.files = files.files;
      }
    } finally {
      setPreparing(false);
    }
  };
  const currentYear = data.currentYear;
  const schema = editKidSchema(currentYear);
  const [form, fields] = useForm({
    id: "edit-kid",
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    lastResult: lastResult as any,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    defaultValue: { kidName: data.profile.name, birthMonth: String(data.profile.birthMonth), birthYear: String(data.profile.birthYear) },
  });
  return (
    <Modal title="Edit kid" closeHref={to({ modal: null })}>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="stack" preventScrollReset>
        <input type="hidden" name="intent" value="edit-kid" />
        <input type="hidden" name="profileId" value={data.profile.id} />
        <KidFields fields={fields} nameLabel="Name" />
        {data.parent.hideGoogle ? null : (
          <Field label="Picture (optional, up to 20 MB)" id={fields.picture.id} errors={fields.picture.errors}>
            <input
              id={fields.picture.id}
              name={fields.picture.name}
              type="file"
              accept="image/png,image/jpeg,image/gif,image/webp"
              onChange={(e) => void shrink(e.currentTarget)}
            />
          </Field>
        )}
        {form.errors?.length ? (
          <p className="field-error" role="alert">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <div className="modal-actions">
          <Link to={to({ modal: null })} className="btn btn-outline">
            Cancel
          </Link>
          <SubmitButton busy={busy || preparing} className="btn">
            {preparing ? "Preparing the picture…" : "Save"}
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}
