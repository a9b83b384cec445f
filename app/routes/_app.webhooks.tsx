import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { formatMediumDateTime } from "#core/format";
import { guardUrl } from "#core/net-guard.server";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_MAX_ENDPOINTS, WEBHOOK_TEST_TYPE } from "#core/webhooks";
import {
  countEndpoints,
  createEndpoint,
  deleteEndpoint,
  enableEndpoint,
  findOwnEndpoint,
  listEndpoints,
  recentDeliveries,
} from "#db/queries/webhooks";
import { newWebhookSecret, sendTestEvent, webhookEndpointsChanged } from "#device-service/webhooks";
import { ChevronIcon } from "~/components/dashboard/icons";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import { addEndpointSchema } from "~/components/webhooks/schemas";
import { requireParent } from "~/utils/auth.server";
import { useIsSubmitting } from "~/utils/hooks";
import { redirectWithToast } from "~/utils/toast.server";
import authStyles from "../styles/auth.css?url";
import webhookStyles from "../styles/webhooks.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: authStyles },
  { rel: "stylesheet", href: webhookStyles },
];
export const meta: MetaFunction = () => [{ title: "Webhooks · Kids Portal" }];

const HERE = "/webhooks";
const idSchema = z.string().trim().min(1).max(64);

/**
 * Webhooks (issue 56 item 4): the parent's endpoints, each with the events it gets, its state and its delivery log;
 * add (the signing secret shown once, in the answer to the add), send a test event, turn back on, delete. Every
 * endpoint action names an endpoint of the parent's own: another's reads as missing and changes nothing.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const db = args.context.services.db;
  const [endpoints, deliveries] = await Promise.all([listEndpoints(db, parent.id), recentDeliveries(db, parent.id, 10)]);
  return json({
    endpoints: endpoints.map((e) => ({ ...e, deliveries: deliveries.get(e.id) ?? [] })),
    eventTypes: Object.entries(WEBHOOK_EVENT_TYPES).map(([value, label]) => ({ value, label })),
    max: WEBHOOK_MAX_ENDPOINTS,
  });
}

type ActionData = { result: SubmissionResult<string[]> } | { created: { url: string; secret: string } };

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const { services } = args.context;
  const db = services.db;
  const formData = await args.request.formData();
  const intent = z.enum(["add", "test", "enable", "delete"]).safeParse(formData.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  if (intent.data === "add") {
    const submission = parseWithZod(formData, { schema: addEndpointSchema });
    if (submission.status !== "success") return json<ActionData>({ result: submission.reply() }, { status: 400 });
    if ((await countEndpoints(db, parent.id)) >= WEBHOOK_MAX_ENDPOINTS)
      return json<ActionData>(
        { result: submission.reply({ formErrors: [`You can have ${WEBHOOK_MAX_ENDPOINTS} endpoints at most. Delete one first.`] }) },
        { status: 400 },
      );
    // The address is checked now for a clear message, and again before every delivery (the name may move).
    const guard = await guardUrl(submission.value.url, { allowPrivate: services.env.WEBHOOKS_ALLOW_PRIVATE });
    if (!guard.ok && !guard.reason.includes("could not be resolved"))
      return json<ActionData>(
        { result: submission.reply({ fieldErrors: { url: [`This address cannot receive webhooks: ${guard.reason}.`] } }) },
        { status: 400 },
      );
    const secret = newWebhookSecret();
    await createEndpoint(db, parent.id, { url: submission.value.url, secret, eventTypes: [...new Set(submission.value.events)] });
    webhookEndpointsChanged(db);
    services.log("info", "webhook endpoint added", { parent: parent.id });
    // Shown once, in this answer: never in a URL, a toast cookie or the log.
    return json<ActionData>({ created: { url: submission.value.url, secret } });
  }
  const id = idSchema.safeParse(formData.get("id"));
  if (!id.success) throw new Response("Not found.", { status: 404 });
  const endpoint = await findOwnEndpoint(db, parent.id, id.data);
  if (!endpoint) throw new Response("Not found.", { status: 404 });
  switch (intent.data) {
    case "test": {
      if (!endpoint.enabled)
        return redirectWithToast(HERE, { type: "error", message: "This endpoint is switched off. Turn it back on to send a test event." });
      await sendTestEvent({ db, jobs: services.jobs, log: services.log }, endpoint.id);
      return redirectWithToast(HERE, { type: "success", message: "Test event sent. Its delivery shows in the log below." });
    }
    case "enable": {
      await enableEndpoint(db, parent.id, endpoint.id);
      webhookEndpointsChanged(db);
      return redirectWithToast(HERE, { type: "success", message: "The endpoint is on again." });
    }
    case "delete": {
      await deleteEndpoint(db, parent.id, endpoint.id);
      webhookEndpointsChanged(db);
      return redirectWithToast(HERE, { type: "success", message: "The endpoint has been deleted." });
    }
  }
}

const STATE_LABELS: Record<string, string> = {
  pending: "Waiting to retry",
  sending: "Sending",
  delivered: "Delivered",
  failed: "Failed",
  cancelled: "Cancelled",
};

function AddEndpoint({
  eventTypes,
  lastResult,
}: {
  eventTypes: { value: string; label: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const busy = useIsSubmitting({ intent: "add" });
  const [form, fields] = useForm({ lastResult, shouldValidate: "onSubmit" });
  const submitted = (lastResult?.initialValue ?? {}) as { events?: string | string[] };
  const chosen = new Set([submitted.events ?? []].flat());
  return (
    <Form method="post" {...getFormProps(form)} className="card stack" noValidate aria-labelledby="add-endpoint-title">
      <h2 id="add-endpoint-title">Add an endpoint</h2>
      <input type="hidden" name="intent" value="add" />
      <FormErrors errors={form.errors} id="add-endpoint-errors" />
      <Field
        label="Endpoint address"
        id={fields.url.id}
        errors={fields.url.errors}
        hint="Where we POST each event, e.g. https://example.com/kids-portal/events"
      >
        <input {...getInputProps(fields.url, { type: "url" })} autoComplete="off" inputMode="url" />
      </Field>
      <fieldset className="stack webhook-events" aria-describedby={fields.events.errors?.length ? `${fields.events.id}-error` : undefined}>
        <legend>Events</legend>
        {eventTypes.map((t) => (
          <label key={t.value}>
            <input type="checkbox" name={fields.events.name} value={t.value} defaultChecked={chosen.has(t.value)} /> {t.label}
          </label>
        ))}
        {fields.events.errors?.length ? (
          <div className="field-error" id={`${fields.events.id}-error`} role="alert">
            {fields.events.errors.join(" ")}
          </div>
        ) : null}
      </fieldset>
      <SubmitButton busy={busy}>Add endpoint</SubmitButton>
    </Form>
  );
}

export default function Webhooks() {
  const { endpoints, eventTypes, max } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const created = actionData && "created" in actionData ? actionData.created : null;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  const busyTest = useIsSubmitting({ intent: "test" });
  const busyEnable = useIsSubmitting({ intent: "enable" });
  const busyDelete = useIsSubmitting({ intent: "delete" });
  const labelOf = (type: string) =>
    type === WEBHOOK_TEST_TYPE ? "Test event" : ((WEBHOOK_EVENT_TYPES as Record<string, string>)[type]?.split(":")[0] ?? type);
  return (
    <section className="stack">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>Webhooks</h1>
      <p>
        We POST each event you choose to your endpoint as JSON, signed by the Standard Webhooks specification (headers webhook-id,
        webhook-timestamp and webhook-signature). A failed delivery is retried 4 times over about an hour; an endpoint whose deliveries keep
        failing is switched off and we e-mail you. Up to {max} endpoints.
      </p>

      {created ? (
        <div className="banner banner-success stack webhook-secret" role="status">
          <p>
            Endpoint added: <strong>{created.url}</strong>
          </p>
          <p>
            Its signing secret, shown only now (copy it to your receiver to verify signatures):{" "}
            <code data-testid="webhook-secret">{created.secret}</code>
          </p>
        </div>
      ) : null}

      <AddEndpoint eventTypes={eventTypes} lastResult={result} />

      <div className="card stack">
        <h2>Your endpoints</h2>
        {endpoints.length === 0 ? (
          <p className="muted">No endpoints yet. Add one above to receive events.</p>
        ) : (
          <ul className="stack webhook-list" aria-label="Endpoints">
            {endpoints.map((e) => (
              <li key={e.id} className="stack" aria-label={e.url}>
                <h3 className="webhook-url">{e.url}</h3>
                <p>
                  {e.enabled ? (
                    <strong>On</strong>
                  ) : (
                    <strong className="webhook-off">
                      Switched off{e.disabledAt ? ` on ${formatMediumDateTime(e.disabledAt)}` : ""}. {e.disabledReason ?? ""}
                    </strong>
                  )}{" "}
                  · Events: {e.eventTypes.map(labelOf).join(", ")}
                </p>
                <div className="webhook-actions">
                  {e.enabled ? (
                    <Form method="post">
                      <input type="hidden" name="intent" value="test" />
                      <input type="hidden" name="id" value={e.id} />
                      <SubmitButton busy={busyTest} className="btn btn-outline" aria-label={`Send test event to ${e.url}`}>
                        Send test event
                      </SubmitButton>
                    </Form>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="intent" value="enable" />
                      <input type="hidden" name="id" value={e.id} />
                      <SubmitButton busy={busyEnable} className="btn btn-primary" aria-label={`Turn ${e.url} back on`}>
                        Turn back on
                      </SubmitButton>
                    </Form>
                  )}
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={e.id} />
                    <SubmitButton busy={busyDelete} className="btn btn-outline" aria-label={`Delete ${e.url}`}>
                      Delete
                    </SubmitButton>
                  </Form>
                </div>
                <h4>Delivery log</h4>
                {e.deliveries.length === 0 ? (
                  <p className="muted">No deliveries yet.</p>
                ) : (
                  <div className="webhook-log">
                    <table className="sessions-table">
                      <caption className="sr-only">Deliveries to {e.url}, newest first</caption>
                      <thead>
                        <tr>
                          <th scope="col">Time</th>
                          <th scope="col">Event</th>
                          <th scope="col">Attempts</th>
                          <th scope="col">Status code</th>
                          <th scope="col">State</th>
                        </tr>
                      </thead>
                      <tbody>
                        {e.deliveries.map((d) => (
                          <tr key={d.id}>
                            <td data-label="Time">{formatMediumDateTime(d.updatedAt)}</td>
                            <td data-label="Event">{d.type}</td>
                            <td data-label="Attempts">{d.attempts}</td>
                            <td data-label="Status code">{d.statusCode ?? "No answer"}</td>
                            <td data-label="State">
                              {STATE_LABELS[d.state] ?? d.state}
                              {d.error && d.state !== "delivered" ? <span className="muted"> · {d.error}</span> : null}
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
