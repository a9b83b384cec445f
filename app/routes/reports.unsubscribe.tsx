import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { checkUnsubscribe } from "#core/report-unsubscribe";
import { setReportType } from "#db/queries/dashboard/reports";

export const meta: MetaFunction = () => [{ title: "Stop kids reports · Kids Portal" }, { name: "robots", content: "noindex" }];

const INVALID = "This link is invalid. Open the link in your latest report mail, or change the report frequency on Global Settings.";

/**
 * The report mail's unsubscribe link (signed, no sign-in needed). Opening it only shows a confirmation: mail
 * scanners and link previews fetch links, so nothing changes on GET. The button POSTs and turns reports Off.
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const parent = url.searchParams.get("parent");
  const sig = url.searchParams.get("sig");
  const ok = checkUnsubscribe(args.context.services.env.SESSION_SECRET, parent, sig);
  return json(
    { ok, parent: ok ? parent : null, sig: ok ? sig : null },
    { status: ok ? 200 : 400, headers: { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } },
  );
}

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const parent = String(form.get("parent") ?? "");
  const sig = String(form.get("sig") ?? "");
  if (!checkUnsubscribe(args.context.services.env.SESSION_SECRET, parent, sig))
    return json({ done: false, message: INVALID }, { status: 400 });
  await setReportType(args.context.services.db, parent, "Off");
  return json({ done: true, message: "Reports are off. You will get no more report mails; the reports already made stay in the portal." });
}

export default function UnsubscribePage() {
  const data = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  return (
    <main className="center-page">
      <section className="auth-card" aria-labelledby="unsubscribe-title">
        <h1 id="unsubscribe-title">Stop kids reports</h1>
        {done ? (
          <p role="status">{done.message}</p>
        ) : data.ok ? (
          <>
            <p>
              Turn weekly and monthly kids reports off? No more report mails will be sent to you. You can turn them on again on Global
              Settings.
            </p>
            <Form method="post">
              <input type="hidden" name="parent" value={data.parent ?? ""} />
              <input type="hidden" name="sig" value={data.sig ?? ""} />
              <button type="submit" className="btn">
                Turn reports off
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
