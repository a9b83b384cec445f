import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ALERT_CHANNELS, ALERT_KINDS } from "#core/alert-events";
import { ALERT_CHANNEL_LABELS, ALERT_KIND_LABELS } from "#core/alert-texts";
import { DEFAULT_TIME_ZONE, parseHhmm, safeTimeZone } from "#core/zoned-time";
import { readAlertSettings, saveAlertSettings, type AlertSwitchMatrix } from "#db/queries/alerts";
import { cachedVapidKeys } from "#core/vapid.server";
import { listPushBrowsers } from "#db/queries/push-subscriptions";
import { PushSubscribe } from "~/components/alerts/PushSubscribe";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { requireParent } from "~/utils/auth.server";
import { useIsSubmitting } from "~/utils/hooks";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Alert settings · Kids Portal" }];

/** A switch's field name: no dots (conform reads a dot as a nested field). */
const switchName = (kind: string, channel: string) => `${kind.replace(/\./g, "_")}__${channel}`;
const TIME = "Enter a time as HH:MM (00:00 to 23:59).";

/** Every switch is a checkbox (absent: off); quiet hours, when on, need a start and an end that differ. */
const Schema = z
  .object({
    quiet: z.literal("on").optional(),
    quietStart: z.string().trim().optional(),
    quietEnd: z.string().trim().optional(),
  })
  .passthrough()
  .superRefine((v, ctx) => {
    if (!v.quiet) return;
    const start = v.quietStart ? parseHhmm(v.quietStart) : null;
    const end = v.quietEnd ? parseHhmm(v.quietEnd) : null;
    if (start === null)
      ctx.addIssue({ code: "custom", path: ["quietStart"], message: v.quietStart ? TIME : "Enter when quiet hours start." });
    if (end === null) ctx.addIssue({ code: "custom", path: ["quietEnd"], message: v.quietEnd ? TIME : "Enter when quiet hours end." });
    if (start !== null && end !== null && start === end)
      ctx.addIssue({ code: "custom", path: ["quietEnd"], message: "Quiet hours must end at another time than they start." });
  });

/** Alert settings (issue 55 item 4): which alerts reach the parent on which channel, and quiet hours. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const db = args.context.services.db;
  const [settings, browsers] = await Promise.all([readAlertSettings(db, parent.id), listPushBrowsers(db, parent.id)]);
  return json({
    settings,
    push: { publicKey: cachedVapidKeys(args.context.services.env).publicKey, browsers },
    timeZone: safeTimeZone(parent.time_zone ?? DEFAULT_TIME_ZONE),
    kinds: ALERT_KINDS.map((k) => ({ id: k, label: ALERT_KIND_LABELS[k] })),
    channels: ALERT_CHANNELS.map((c) => ({ id: c, label: ALERT_CHANNEL_LABELS[c] })),
  });
}

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const formData = await args.request.formData();
  const submission = parseWithZod(formData, { schema: Schema });
  if (submission.status !== "success") return json(submission.reply(), { status: 400 });
  const v = submission.value as Record<string, unknown> & z.infer<typeof Schema>;
  const switches = Object.fromEntries(
    ALERT_KINDS.map((k) => [k, Object.fromEntries(ALERT_CHANNELS.map((c) => [c, formData.get(switchName(k, c)) === "on"]))]),
  ) as AlertSwitchMatrix;
  await saveAlertSettings(args.context.services.db, parent.id, {
    switches,
    quiet: v.quiet ? { start: v.quietStart!, end: v.quietEnd! } : null,
  });
  return redirectWithToast("/alert-settings", { type: "success", message: "Alert settings saved." });
}

export default function AlertSettingsPage() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useIsSubmitting();
  // Checked on submit only: a server round trip on blur (conform revalidating a refused form) raced the Save click
  // that caused the blur, and the re-keyed form dropped the save.
  const [form, fields] = useForm({ lastResult, shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" });
  // After a refused save, the form shows what was sent (nothing is lost); else what is stored.
  const sent = (lastResult?.initialValue ?? null) as Record<string, unknown> | null;
  const checked = (kind: string, channel: string) =>
    sent ? sent[switchName(kind, channel)] === "on" : data.settings.switches[kind as keyof AlertSwitchMatrix][channel as "centre"];
  const quietOn = sent ? sent.quiet === "on" : Boolean(data.settings.quiet);
  const quietStart = sent ? String(sent.quietStart ?? "") : (data.settings.quiet?.start ?? "22:00");
  const quietEnd = sent ? String(sent.quietEnd ?? "") : (data.settings.quiet?.end ?? "07:00");
  return (
    <div className="stack">
      <h1>Alert settings</h1>
      <p>
        Choose which alerts reach you, and where. The alert centre is the bell at the top of every page:{" "}
        <Link to="/alerts">see your alerts</Link>.
      </p>
      <Form method="post" {...getFormProps(form)} className="stack" key={JSON.stringify(sent)}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <section className="card" aria-labelledby="switches-title">
          <h2 id="switches-title">Alerts and channels</h2>
          <table className="alert-switches">
            <caption className="sr-only">Each alert on each channel: checked is on</caption>
            <thead>
              <tr>
                <th scope="col">Alert</th>
                {data.channels.map((c) => (
                  <th scope="col" key={c.id}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.kinds.map((k) => (
                <tr key={k.id}>
                  <th scope="row">{k.label}</th>
                  {data.channels.map((c) => (
                    <td key={c.id}>
                      <input
                        type="checkbox"
                        name={switchName(k.id, c.id)}
                        aria-label={`${k.label}: ${c.label}`}
                        defaultChecked={checked(k.id, c.id)}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section className="card stack" aria-labelledby="quiet-title">
          <h2 id="quiet-title">Quiet hours</h2>
          <p className="muted">
            During quiet hours, e-mails and browser notifications wait until they end; the alert centre still shows new alerts. Times are in
            your time zone ({data.timeZone}).
          </p>
          <label className="checkbox">
            <input type="checkbox" name={fields.quiet.name} defaultChecked={quietOn} /> Quiet hours on
          </label>
          <Field label="Quiet hours start" id={fields.quietStart.id} errors={fields.quietStart.errors}>
            <input
              type="time"
              id={fields.quietStart.id}
              name={fields.quietStart.name}
              defaultValue={quietStart}
              aria-invalid={fields.quietStart.errors ? true : undefined}
              aria-describedby={fields.quietStart.errors ? `${fields.quietStart.id}-error` : undefined}
            />
          </Field>
          <Field label="Quiet hours end" id={fields.quietEnd.id} errors={fields.quietEnd.errors}>
            <input
              type="time"
              id={fields.quietEnd.id}
              name={fields.quietEnd.name}
              defaultValue={quietEnd}
              aria-invalid={fields.quietEnd.errors ? true : undefined}
              aria-describedby={fields.quietEnd.errors ? `${fields.quietEnd.id}-error` : undefined}
            />
          </Field>
        </section>
        <SubmitButton busy={busy}>Save alert settings</SubmitButton>
      </Form>
      <section className="card stack" aria-labelledby="push-title">
        <h2 id="push-title">Notifications</h2>
        <p className="muted">Alerts can also appear as notifications in the browsers you choose (the Push channel above).</p>
        <PushSubscribe publicKey={data.push.publicKey} browsers={data.push.browsers} />
      </section>
    </div>
  );
}
