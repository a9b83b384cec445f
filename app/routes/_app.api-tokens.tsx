import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { Field, FormErrors, SubmitButton } from "~/components/forms";
import {
  API_TOKEN_MAX_DAYS,
  API_TOKENS_PER_PARENT,
  countLiveApiTokens,
  createApiToken,
  listApiTokens,
  revokeApiToken,
} from "#db/queries/api-tokens";
import { formatDateTime } from "#core/format";
import { requireParent } from "~/utils/auth.server";
import { useIsSubmitting } from "~/utils/hooks";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "API Tokens · Kids Portal" }];

const HERE = "/api-tokens";
const EXPIRY_DAYS = [7, 30, 90, 365] as const;

const CreateSchema = z.object({
  name: z.string().trim().min(1, "Please give the token a name.").max(60, "The name is at most 60 characters."),
  scope: z.enum(["read", "control"], { errorMap: () => ({ message: "Please choose what the token may do." }) }),
  days: z.coerce
    .number()
    .int()
    .refine((d) => (EXPIRY_DAYS as readonly number[]).includes(d) && d <= API_TOKEN_MAX_DAYS, "Please choose when the token expires."),
});

/** Personal access tokens for /api/v1 (docs/api.md): made here (shown once), listed with their last use, revoked here. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const tokens = await listApiTokens(args.context.services.db, parent.id);
  const now = Date.now();
  return json(
    {
      tokens: tokens.map((t) => ({
        id: t.id,
        name: t.name,
        scope: t.scope,
        createdAt: t.created_at,
        expiresAt: t.expires_at,
        lastUsedAt: t.last_used_at,
        state: t.revoked_at ? ("revoked" as const) : Date.parse(t.expires_at) <= now ? ("expired" as const) : ("live" as const),
      })),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

type ActionData = { created: { token: string; name: string } } | { errors: Record<string, string[]>; values: Record<string, string> };

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const db = args.context.services.db;
  const form = await args.request.formData();
  if (form.get("intent") === "revoke") {
    const id = z.string().trim().min(1).max(64).safeParse(form.get("id"));
    // Another parent's token, or one revoked already: nothing is revoked, and nothing is revealed.
    const done = id.success && (await revokeApiToken(db, parent.id, id.data));
    return redirectWithToast(
      HERE,
      done
        ? { type: "success", message: "The token has been revoked. It no longer works." }
        : { type: "error", message: "This token was not found or was revoked already." },
    );
  }
  const values = { name: String(form.get("name") ?? ""), scope: String(form.get("scope") ?? ""), days: String(form.get("days") ?? "") };
  const parsed = CreateSchema.safeParse(values);
  if (!parsed.success)
    return json<ActionData>({ errors: parsed.error.flatten().fieldErrors as Record<string, string[]>, values }, { status: 400 });
  if ((await countLiveApiTokens(db, parent.id)) >= API_TOKENS_PER_PARENT)
    return json<ActionData>(
      { errors: { form: [`You can have at most ${API_TOKENS_PER_PARENT} tokens. Please revoke one first.`] }, values },
      { status: 400 },
    );
  const { token } = await createApiToken(db, parent.id, {
    name: parsed.data.name,
    scope: parsed.data.scope,
    expiresAt: new Date(Date.now() + parsed.data.days * 86_400_000),
  });
  // Shown on this answer only (never in a URL, a toast cookie or the log); the page reloads without it.
  return json<ActionData>({ created: { token, name: parsed.data.name } }, { headers: { "Cache-Control": "no-store" } });
}

export default function ApiTokens() {
  const { tokens } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as ActionData | undefined;
  const busy = useIsSubmitting();
  const errors = data && "errors" in data ? data.errors : {};
  const values = data && "values" in data ? data.values : { name: "", scope: "read", days: "30" };
  return (
    <div className="stack">
      <h1>API Tokens</h1>
      <p className="muted">
        Tokens let your own scripts and apps use the <a href="/api/docs">Kids Portal API</a> as you: your kids, and kids shared with you. A
        read token can only look; a control token can also change settings and send commands.
      </p>
      {data && "created" in data ? (
        <section className="card stack" aria-labelledby="new-token-title" role="status">
          <h2 id="new-token-title">Your new token: {data.created.name}</h2>
          <p>Copy it now: it is shown only this once.</p>
          <Field label="Token" id="new-token">
            <input id="new-token" readOnly value={data.created.token} className="mono" onFocus={(e) => e.currentTarget.select()} />
          </Field>
          <p className="muted">
            Use it as <code>Authorization: Bearer …</code>. <Link to={HERE}>Done</Link>
          </p>
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="create-title">
        <h2 id="create-title">Create a token</h2>
        <Form method="post" className="stack" aria-labelledby="create-title">
          <FormErrors errors={errors.form} />
          <Field label="Name" id="token-name" errors={errors.name} hint="What will use it, e.g. Home dashboard.">
            <input
              id="token-name"
              name="name"
              defaultValue={values.name}
              maxLength={60}
              required
              aria-invalid={errors.name ? true : undefined}
            />
          </Field>
          <fieldset className="field">
            <legend>What it may do</legend>
            <label>
              <input type="radio" name="scope" value="read" defaultChecked={values.scope !== "control"} /> Read only
            </label>
            <label>
              <input type="radio" name="scope" value="control" defaultChecked={values.scope === "control"} /> Read and control
            </label>
            {errors.scope ? (
              <div className="field-error" role="alert">
                {errors.scope.join(" ")}
              </div>
            ) : null}
          </fieldset>
          <Field label="Expires after" id="token-days" errors={errors.days}>
            <select id="token-days" name="days" defaultValue={values.days || "30"}>
              {EXPIRY_DAYS.map((d) => (
                <option key={d} value={d}>
                  {d} days
                </option>
              ))}
            </select>
          </Field>
          <input type="hidden" name="intent" value="create" />
          <SubmitButton busy={busy}>Create token</SubmitButton>
        </Form>
      </section>
      <section className="card stack" aria-labelledby="list-title">
        <h2 id="list-title">Your tokens</h2>
        {tokens.length === 0 ? (
          <p className="empty-state">No tokens yet.</p>
        ) : (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr key={t.id}>
                  <td>{t.name}</td>
                  <td>{t.scope === "control" ? "Read and control" : "Read only"}</td>
                  <td>{t.state === "revoked" ? "Revoked" : `${t.state === "expired" ? "Expired " : ""}${formatDateTime(t.expiresAt)}`}</td>
                  <td>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : "Never"}</td>
                  <td>
                    {t.state === "live" ? (
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="id" value={t.id} />
                        <button type="submit" className="btn btn-danger btn-small" aria-label={`Revoke ${t.name}`}>
                          Revoke
                        </button>
                      </Form>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
