import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { listReports } from "#db/queries/reports";
import { kidQuery, requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { MONTHS, reportFilter, reportYears } from "~/rules/reports";
import dashboardStyles from "../styles/dashboard.css?url";
import reportStyles from "../styles/reports.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: reportStyles },
];
export const meta: MetaFunction = () => [{ title: "Reports · Kids Portal" }];

/** The kid's reports whose period starts in the chosen month and year (filters in the URL; spec 2 §2). */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const serialNumber = url.searchParams.get("serialNumber");
  const filter = reportFilter(url.searchParams);
  // The month's reports are read beside the guard (one wait); nothing is returned unless it passed.
  const [{ device, kid }, rows] = await Promise.all([
    requireKidDevice(args, profileId, serialNumber),
    profileId ? listReports(args.context.services.db, profileId, filter.year, filter.month) : [],
  ]);
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    filter,
    years: reportYears(),
    reports: rows.map((r) => ({ id: r.id, title: r.title })),
    kidQuery: kidQuery(kid.id, device.serial_number),
  });
}

export default function ReportsPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <div className="stack">
      <PageHead title="Reports" kidName={data.kid.name} profileId={data.kid.id} />
      <Form method="get" className="card report-filters" aria-label="Find reports">
        <input type="hidden" name="profileId" value={data.kid.id} />
        <input type="hidden" name="serialNumber" value={data.serialNumber} />
        <label>
          Month
          <select name="month" defaultValue={String(data.filter.month)} key={`m${data.filter.month}`}>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        </label>
        <label>
          Year
          <select name="year" defaultValue={String(data.filter.year)} key={`y${data.filter.year}`}>
            {data.years.map((y) => (
              <option key={y} value={y}>
                {y}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </Form>
      <section className="card" aria-labelledby="reports-title">
        <h2 id="reports-title">
          {MONTHS[data.filter.month - 1]} {data.filter.year}
        </h2>
        {data.reports.length ? (
          <table className="report-table">
            <thead>
              <tr>
                <th scope="col">Report</th>
                <th scope="col">
                  <span className="sr-only">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.reports.map((r) => (
                <tr key={r.id}>
                  <td>{r.title}</td>
                  <td className="num">
                    <Link to={`/report?id=${r.id}&${data.kidQuery}`} aria-label={`View ${r.title}`}>
                      View
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="empty-state muted">No data found.</p>
        )}
      </section>
    </div>
  );
}
