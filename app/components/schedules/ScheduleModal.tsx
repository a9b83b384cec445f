import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { Form, Link } from "@remix-run/react";
import { WEEKDAYS } from "#core/zoned-time";
import { Field, SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { useHrefWith } from "~/components/dashboard/url";
import { useIsSubmitting } from "~/utils/hooks";
import type { ScheduleDraft } from "./schemas";
import { scheduleFormSchema } from "./schemas";

interface Props {
  draft: ScheduleDraft;
  lastResult: unknown;
  presets: { key: string; name: string }[];
  categories: { id: string; name: string }[];
  apps: { packageName: string; title: string }[];
}

/**
 * ?modal=add (with &preset=bedtime or school) or ?modal=edit&id=…: the schedule's name, weekday checkboxes,
 * start and end (the end may be the next morning), and what it blocks. Posts to the page's action (no JS needed);
 * a refused form comes back with each message under its field.
 */
export function ScheduleModal({ draft, lastResult, presets, categories, apps }: Props) {
  const to = useHrefWith();
  const busy = useIsSubmitting({ intent: "save" });
  const [form, fields] = useForm({
    id: `schedule-${draft.id ?? "new"}-${draft.name}`,
    defaultValue: { ...draft, days: draft.days.map(String) },
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    lastResult: lastResult as any,
    constraint: getZodConstraint(scheduleFormSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scheduleFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const initial = (v: unknown) => (Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)]);
  const days = initial(fields.days.initialValue);
  const cats = initial(fields.categories.initialValue);
  const chosenApps = initial(fields.apps.initialValue);
  const blocks = String(fields.blocks.initialValue ?? "all");
  const close = to({ modal: null, id: null, preset: null });
  const adding = !draft.id;
  return (
    <Modal title={adding ? "Add Schedule" : `Edit ${draft.name}`} closeHref={close}>
      {adding ? (
        <nav className="radio-row" aria-label="Ready-made schedules">
          <span className="muted small">Start from:</span>
          {presets.map((p) => (
            <Link key={p.key} to={to({ preset: p.key })} replace preventScrollReset className="btn btn-outline btn-small">
              {p.name}
            </Link>
          ))}
          <Link to={to({ preset: null })} replace preventScrollReset className="btn btn-outline btn-small">
            Blank
          </Link>
        </nav>
      ) : null}
      <Form method="post" {...getFormProps(form)} key={form.id} className="stack" preventScrollReset noValidate>
        <input type="hidden" name="intent" value="save" />
        {draft.id ? <input type="hidden" name="id" value={draft.id} /> : null}
        <Field label="Name" id={fields.name.id} errors={fields.name.errors}>
          <input {...getInputProps(fields.name, { type: "text" })} autoComplete="off" />
        </Field>
        <fieldset className="field" aria-describedby={fields.days.errors ? `${fields.days.id}-error` : undefined}>
          <legend>Days</legend>
          <div className="radio-row">
            {WEEKDAYS.map((day, i) => (
              <label key={day} className="choice">
                <input type="checkbox" name="days" value={i} defaultChecked={days.includes(String(i))} />
                {day}
              </label>
            ))}
          </div>
          {fields.days.errors ? (
            <div className="field-error" id={`${fields.days.id}-error`} role="alert">
              {fields.days.errors.join(" ")}
            </div>
          ) : null}
        </fieldset>
        <div className="two-col">
          <Field label="Start" id={fields.start.id} errors={fields.start.errors}>
            <input {...getInputProps(fields.start, { type: "time" })} />
          </Field>
          <Field label="End" id={fields.end.id} errors={fields.end.errors} hint="An end before the start is the next day (21:00 to 07:00).">
            <input {...getInputProps(fields.end, { type: "time" })} />
          </Field>
        </div>
        <fieldset className="field">
          <legend>What it blocks</legend>
          <label className="choice">
            <input type="radio" name="blocks" value="all" defaultChecked={blocks === "all"} /> The whole phone
          </label>
          <label className="choice">
            <input type="radio" name="blocks" value="some" defaultChecked={blocks === "some"} /> Only these categories and apps
          </label>
          {fields.blocks.errors ? (
            <div className="field-error" id={`${fields.blocks.id}-error`} role="alert">
              {fields.blocks.errors.join(" ")}
            </div>
          ) : null}
          <details open={blocks === "some"}>
            <summary>Categories and apps</summary>
            <div className="choice-list">
              {categories.map((c) => (
                <label key={c.id} className="choice">
                  <input type="checkbox" name="categories" value={c.id} defaultChecked={cats.includes(c.id)} />
                  {c.name}
                </label>
              ))}
            </div>
            <div className="choice-list">
              {apps.map((a) => (
                <label key={a.packageName} className="choice">
                  <input type="checkbox" name="apps" value={a.packageName} defaultChecked={chosenApps.includes(a.packageName)} />
                  {a.title}
                </label>
              ))}
            </div>
          </details>
        </fieldset>
        <p className="muted small">The phone app, the kids app and the apps you mark &quot;Always allowed&quot; stay usable.</p>
        {form.errors?.length ? (
          <p className="field-error" role="alert">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <div className="modal-actions">
          <Link to={close} className="btn btn-outline">
            Cancel
          </Link>
          <SubmitButton busy={busy} className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
    </Modal>
  );
}
