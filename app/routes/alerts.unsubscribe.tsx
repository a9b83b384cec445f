import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { checkUnsubscribe } from "#core/report-unsubscribe";
import { turnAlertEmailsOff } from "#db/queries/alerts";

export const meta: MetaFunction = () => [{ title: "Stop alert e-mails · Kids Portal" }, { name: "robots", content: "noindex" }];

const INVALID = "This link is invalid. Open the link in your latest alert e-mail, or change your alerts on Alert settings.";

/**
 * The alert mail's unsubscribe link (signed, no sign-in needed; core/report-unsubscribe.ts, purpose "alerts"). Opening
 * it only shows a confirmation: mail scanners fetch links, so nothing changes on GET. The button POSTs and turns every
 * alert e-mail off; the alert centre and browser notifications stay as they are.
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const parent = url.searchParams.get("parent");
  const sig = url.searchParams.get("sig");
  const ok = checkUnsubscribe(args.context.services.env.SESSION_SECRET, parent, sig, "alerts");
  return json(
    { ok, parent: ok ? parent : null, sig: ok ? sig : null },
    { status: ok ? 200 : 400, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const parent = String(form.get("parent") ?? "");
  const sig = String(form.get("sig") ?? "");
  if (!checkUnsubscribe(args.context.services.env.SESSION_SECRET, parent, sig, "alerts"))
    return json({ done: false, message: INVALID }, { status: 400 });
  await turnAlertEmailsOff(args.context.services.db, parent);
  return json({ done: true, message: "Alert e-mails are off. Your alerts still show in the alert centre of the portal." });
}

export default function AlertUnsubscribePage() {
  const data = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  return (
    <main className="center-page">
      <section className="auth-card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">Stop alert e-mails</h1>
        {done ? (
          <p role={done.done ? "status" : "alert"}>{done.message}</p>
        ) : data.ok ? (
          <>
            <p>Turn every alert e-mail off? You can turn them on again on Alert settings.</p>
            <Form method="post">
              <input type="hidden" name="parent" value={data.parent ?? ""} />
              <input type="hidden" name="sig" value={data.sig ?? ""} />
              <button type="submit" className="btn">
                Turn alert e-mails off
              </button>
            </Form>
          </>
        ) : (
          <p role="alert">{INVALID}</p>
        )}
        <Link to="/login">Go to Kids Portal</Link>
      </section>
    </main>
  );
}
