import { json, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ALERT_KINDS } from "#core/alert-events";
import { ALERT_KIND_LABELS, isAlertKind } from "#core/alert-texts";
import { DEFAULT_TIME_ZONE, safeTimeZone } from "#core/zoned-time";
import { findAccessibleKid } from "#db/queries/access";
import { ALERTS_PAGE_SIZE, listAlerts, markAlertsRead } from "#db/queries/alerts";
import { listKidsForParent } from "#db/queries/kids";
import { KIDS_PAGE_SIZE } from "~/rules/kids";
import { requireParent } from "~/utils/auth.server";
import { perRequest } from "~/utils/request-memo.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Alerts · Kids Portal" }];

const KID_NOT_FOUND = "We couldn't find this kid.";

/** The filters in the URL: kid (one the parent may see, else 404), kind (a known kind, else a message), page. */
async function filtersOf(args: Pick<LoaderFunctionArgs, "request" | "context">, parent: { id: string; email: string }) {
  const url = new URL(args.request.url);
  const kid = url.searchParams.get("kid") || null;
  const kindParam = url.searchParams.get("kind") || null;
  const page = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));
  if (kid && !(await findAccessibleKid(args.context.services.db, parent, kid))) throw json({ message: KID_NOT_FOUND }, { status: 404 });
  const kind = isAlertKind(kindParam) ? kindParam : null;
  const problem = kindParam && !kind ? "There is no such kind of alert; showing every kind." : null;
  return { kid, kind, page, problem };
}

/** The alert centre (issue 55): the parent's alerts, newest first, filtered by kid and kind in the URL, 20 a page. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const f = await filtersOf(args, parent);
  const db = args.context.services.db;
  const [kids, { rows, total }] = await Promise.all([
    perRequest(args, "kids", () => listKidsForParent(db, parent, { pageSize: KIDS_PAGE_SIZE })),
    listAlerts(db, parent, f),
  ]);
  const timeZone = safeTimeZone(parent.time_zone ?? DEFAULT_TIME_ZONE);
  const when = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  });
  return json({
    filter: { kid: f.kid, kind: f.kind, page: f.page },
    problem: f.problem,
    kids: kids.map((k) => ({ id: k.id, name: k.name })),
    kinds: ALERT_KINDS.map((k) => ({ id: k, label: ALERT_KIND_LABELS[k] })),
    alerts: rows.map((r) => ({
      id: r.id,
      title: r.title,
      body: r.body,
      url: r.url,
      at: r.at,
      when: when.format(new Date(r.at)),
      kidName: r.kid_name,
      unread: !r.read_at,
    })),
    total,
    pages: Math.max(1, Math.ceil(total / ALERTS_PAGE_SIZE)),
  });
}

/** Mark one alert read (`intent=read`, `id`), or all of them (`intent=read-all`; with `kid` in the URL, that kid's). */
export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const f = await filtersOf(args, parent);
  const form = await args.request.formData();
  const intent = String(form.get("intent") ?? "");
  const db = args.context.services.db;
  const back = new URL(args.request.url);
  const to = `${back.pathname}${back.search}`;
  if (intent === "read") {
    const id = String(form.get("id") ?? "");
    const n = id ? await markAlertsRead(db, parent, [id]) : 0;
    return n
      ? redirectWithToast(to, { type: "success", message: "Alert marked as read." })
      : redirectWithToast(to, { type: "info", message: "This alert was already read." });
  }
  if (intent === "read-all") {
    const ids = f.kid
      ? (
          await db
            .selectFrom("alerts")
            .select("id")
            .where("parent_id", "=", parent.id)
            .where("profile_id", "=", f.kid)
            .where("read_at", "is", null)
            .execute()
        ).map((r) => r.id)
      : "all";
    const n = await markAlertsRead(db, parent, ids);
    return redirectWithToast(to, { type: "success", message: n ? "All alerts marked as read." : "There were no unread alerts." });
  }
  return json({ message: "Choose Mark as read or Mark all as read." }, { status: 400 });
}

export default function AlertsPage() {
  const data = useLoaderData<typeof loader>();
  const pageHref = (page: number) => {
    const p = new URLSearchParams();
    if (data.filter.kid) p.set("kid", data.filter.kid);
    if (data.filter.kind) p.set("kind", data.filter.kind);
    if (page > 1) p.set("page", String(page));
    const qs = p.toString();
    return `/alerts${qs ? `?${qs}` : ""}`;
  };
  const here = pageHref(data.filter.page);
  const unread = data.alerts.some((a) => a.unread);
  return (
    <div className="stack">
      <h1>Alerts</h1>
      <Form method="get" className="card alert-filters" aria-label="Filter alerts">
        <label>
          Kid
          <select name="kid" defaultValue={data.filter.kid ?? ""} key={`k${data.filter.kid}`}>
            <option value="">All kids</option>
            {data.kids.map((k) => (
              <option key={k.id} value={k.id}>
                {k.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Kind
          <select name="kind" defaultValue={data.filter.kind ?? ""} key={`t${data.filter.kind}`}>
            <option value="">All kinds</option>
            {data.kinds.map((k) => (
              <option key={k.id} value={k.id}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn">
          Show alerts
        </button>
        <Link to="/alert-settings">Alert settings</Link>
      </Form>
      {data.problem ? (
        <p role="alert" className="banner banner-error">
          {data.problem}
        </p>
      ) : null}
      <section className="card" aria-labelledby="alerts-title">
        <h2 id="alerts-title">{data.total === 1 ? "1 alert" : `${data.total} alerts`}</h2>
        {unread ? (
          <Form method="post" action={here}>
            <button type="submit" name="intent" value="read-all" className="btn btn-outline">
              Mark all as read
            </button>
          </Form>
        ) : null}
        {data.alerts.length ? (
          <ul className="alert-list">
            {data.alerts.map((a) => (
              <li key={a.id} className={`alert-item${a.unread ? " unread" : ""}`} data-testid="alert-item">
                <div>
                  <h3>
                    <Link to={a.url}>{a.title}</Link>
                    {a.unread ? <span className="sr-only"> (unread)</span> : null}
                  </h3>
                  <p>{a.body}</p>
                  <p className="muted">
                    {a.kidName} · <time dateTime={a.at}>{a.when}</time>
                  </p>
                </div>
                {a.unread ? (
                  <Form method="post" action={here}>
                    <input type="hidden" name="id" value={a.id} />
                    <button type="submit" name="intent" value="read" className="btn btn-outline" aria-label={`Mark as read: ${a.title}`}>
                      Mark as read
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="empty-state muted">No alerts yet.</p>
        )}
        {data.pages > 1 ? (
          <nav className="alert-pager" aria-label="Alert pages">
            {data.filter.page > 1 ? <Link to={pageHref(data.filter.page - 1)}>Previous page</Link> : null}
            <span>
              Page {data.filter.page} of {data.pages}
            </span>
            {data.filter.page < data.pages ? <Link to={pageHref(data.filter.page + 1)}>Next page</Link> : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}
