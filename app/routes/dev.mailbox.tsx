import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { listOutbox } from "#db/queries/accounts";
import { mailboxAvailable } from "#core/mailbox";
import authStyles from "../styles/auth.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: authStyles }];
export const meta: MetaFunction = () => [{ title: "Dev mailbox · Kids Portal" }, { name: "robots", content: "noindex" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { env, db } = context.services;
  if (!mailboxAvailable(env)) throw new Response("Not found", { status: 404 });
  const mails = await listOutbox(db, 50);
  return json({ mails, smtp: Boolean(env.SMTP_URL) }, { headers: { "Cache-Control": "no-store" } });
}

export default function DevMailbox() {
  const { mails, smtp } = useLoaderData<typeof loader>();
  return (
    <main className="content mailbox">
      <section className="card stack">
        <h1>Dev mailbox</h1>
        <p className="muted">
          {smtp
            ? "SMTP_URL is set: new mail goes out over SMTP; this lists only older outbox entries."
            : "SMTP_URL is not set: mail is kept here (newest first)."}
        </p>
        {mails.length === 0 ? <p>No mail yet.</p> : null}
        {mails.map((m) => (
          <article key={m.id} className="card">
            <h2>{m.subject}</h2>
            <p className="muted">
              To {m.to_address} · {new Date(m.created_at).toUTCString()}
            </p>
            <pre>{m.text_body}</pre>
          </article>
        ))}
      </section>
    </main>
  );
}
