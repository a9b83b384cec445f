import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { listKidApps } from "#db/queries/apps";
import { AppRow } from "~/components/apps/AppRow";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import appsStyles from "../styles/apps.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { formatMinutes, limitProgress } from "~/rules/minutes";
import { useLiveRefresh } from "~/utils/live";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: appsStyles },
];
export const meta: MetaFunction = () => [{ title: "Apps · Kids Portal" }];

/** The side menu's "Apps": every app installed on the kid's phone, today's use, its limit and state. */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { device, kid } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const category = (url.searchParams.get("category") ?? "").slice(0, 64);
  const db = args.context.services.db;
  const [apps, all] = await Promise.all([listKidApps(db, device.id, { q, category: category || undefined }), listKidApps(db, device.id)]);
  const categories = [...new Map(all.map((a) => [a.category, a.categoryName])).entries()]
    .map(([id, name]) => ({ id, name }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    q,
    category,
    categories,
    apps: apps.map((a) => ({ ...a, progress: limitProgress(a.usedToday, a.enableDailyLimit ? a.dailyLimit : 0) })),
  });
}

export default function Apps() {
  const data = useLoaderData<typeof loader>();
  useLiveRefresh(data.kid.id);
  return (
    <div className="stack">
      <PageHead title="Apps" kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card">
        <Form method="get" className="app-filters" role="search" aria-label="Find an app">
          <input type="hidden" name="profileId" value={data.kid.id} />
          <input type="hidden" name="serialNumber" value={data.serialNumber} />
          <div className="field">
            <label htmlFor="q">Search</label>
            <input id="q" name="q" type="search" defaultValue={data.q} />
          </div>
          <div className="field">
            <label htmlFor="category">Category</label>
            <select id="category" name="category" defaultValue={data.category}>
              <option value="">All categories</option>
              {data.categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn">
            Search
          </button>
        </Form>
      </section>
      <section className="card" aria-labelledby="installed-title">
        <h2 id="installed-title">Installed apps ({data.apps.length})</h2>
        {data.apps.length ? (
          <ul className="usage-list" data-testid="kid-apps">
            {data.apps.map((a) => (
              <AppRow
                key={a.packageName}
                app={a}
                href={`/application?${new URLSearchParams({ package_name: a.packageName, profile_id: data.kid.id, serialNumber: data.serialNumber })}`}
              >
                {a.categoryName} · today {formatMinutes(a.usedToday)}
                {a.enableDailyLimit && a.dailyLimit > 0 ? ` of ${formatMinutes(a.dailyLimit)}` : " · no limit"}
              </AppRow>
            ))}
          </ul>
        ) : (
          <p className="muted">No data found.</p>
        )}
      </section>
    </div>
  );
}
