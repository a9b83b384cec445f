import { getInputProps, getSelectProps, type FieldMetadata } from "@conform-to/react";
import { Field } from "~/components/forms";
import { MONTHS } from "~/rules/kids";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Meta = FieldMetadata<any, any, string[]>;

/** A kid's name, birth month and birth year: the fields of "Add your kid" / "Add a kid" and of "Edit kid". */
export function KidFields({ fields, nameLabel }: { fields: { kidName: Meta; birthMonth: Meta; birthYear: Meta }; nameLabel: string }) {
  return (
    <>
      <Field label={nameLabel} id={fields.kidName.id} errors={fields.kidName.errors}>
        <input {...getInputProps(fields.kidName, { type: "text" })} autoComplete="off" />
      </Field>
      <div className="two-col">
        <Field label="Birth month" id={fields.birthMonth.id} errors={fields.birthMonth.errors}>
          <select {...getSelectProps(fields.birthMonth)}>
            <option value="">Choose…</option>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Birth year" id={fields.birthYear.id} errors={fields.birthYear.errors}>
          <input {...getInputProps(fields.birthYear, { type: "number" })} inputMode="numeric" />
        </Field>
      </div>
    </>
  );
}
