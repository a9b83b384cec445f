import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { reportView } from "#db/queries/reports";
import { changeAgainst, dayName } from "#core/report-periods";
import { reportLegendColours } from "#core/report-colours";
import { requireReportWith } from "~/components/reports/report.server";
import { formatMinutes } from "~/rules/minutes";
import { formatDateTime } from "#core/format";
import dashboardStyles from "../styles/dashboard.css?url";
import reportStyles from "../styles/reports.css?url";
import { ChevronIcon } from "~/components/dashboard/icons";
import { AppIcon } from "~/components/AppIcon";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: reportStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.report.title ?? "Report"} · Kids Portal` }];

/** One stored report (spec 2 §2 /report, §3 Report): what the job built, as it was built. */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  // The kid's phone (for the way back) is read beside the access check, and used only once it passed.
  const { report: row, also: device } = await requireReportWith(args, url.searchParams.get("id"), (r) =>
    args.context.services.db
      .selectFrom("devices")
      .select("serial_number")
      .where("profile_id", "=", r.profile_id)
      .orderBy("created_at")
      .executeTakeFirst(),
  );
  const report = reportView(row);
  return json({
    report,
    legend: reportLegendColours(row.pie_svg, report.topCategories),
    change: changeAgainst(report.totalMinutes, report.previousMinutes, report.kind).label,
    back: `/reports?${new URLSearchParams({ profileId: row.profile_id, serialNumber: device?.serial_number ?? "", month: String(Number(row.period_start.slice(5, 7))), year: row.period_start.slice(0, 4) })}`,
  });
}

const chartSrc = (id: string, chart: "bar" | "pie") => `/resources/report-chart?id=${encodeURIComponent(id)}&chart=${chart}`;

export default function ReportPage() {
  const { report: r, legend, change, back } = useLoaderData<typeof loader>();
  const otherMinutes = r.totalMinutes - r.topCategories.reduce((s, c) => s + c.minutes, 0);
  return (
    <article className="stack report">
      <div className="page-head-wrap">
        <Link to={back} className="back-link no-print">
          <ChevronIcon dir="left" /> Back to Reports
        </Link>
        <h1>{r.title}</h1>
      </div>
      <section className="card report-total" aria-labelledby="total-title">
        <h2 id="total-title">Total screen time</h2>
        <p className="report-big">{formatMinutes(r.totalMinutes)}</p>
        <p className="muted">{change}</p>
      </section>
      <section className="card" aria-labelledby="daily-title">
        <h2 id="daily-title">Daily usage</h2>
        <img
          className="report-chart"
          src={chartSrc(r.id, "bar")}
          alt={`Bar chart of daily screen time, ${r.title}`}
          width={640}
          height={260}
        />
        <table className="report-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col" className="num">
                Time
              </th>
            </tr>
          </thead>
          <tbody>
            {r.dailyUsage.map((d) => (
              <tr key={d.day}>
                <td>{d.name}</td>
                <td className="num">{formatMinutes(d.minutes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-labelledby="categories-title">
        <h2 id="categories-title">Top categories</h2>
        <img
          className="report-chart report-pie"
          src={chartSrc(r.id, "pie")}
          alt={`Pie chart of screen time by category, ${r.title}`}
          width={320}
          height={320}
        />
        {r.topCategories.length ? (
          <ul className="report-list">
            {r.topCategories.map((c, i) => (
              <li key={c.category}>
                <span>
                  <span className="swatch" style={{ background: legend.colours[i] }} data-key={c.category} aria-hidden="true" /> {c.name}
                </span>
                <span className="num">{formatMinutes(c.minutes)}</span>
              </li>
            ))}
            {otherMinutes > 0 ? (
              <li>
                <span>
                  <span className="swatch" style={{ background: legend.other }} aria-hidden="true" /> Other categories
                </span>
                <span className="num">{formatMinutes(otherMinutes)}</span>
              </li>
            ) : null}
          </ul>
        ) : (
          <p className="muted">No data found.</p>
        )}
      </section>
      <section className="card" aria-labelledby="apps-title">
        <h2 id="apps-title">Top applications</h2>
        {r.topApps.length ? (
          <ul className="report-list">
            {r.topApps.map((a) => (
              <li key={a.packageName}>
                <span className="report-app">
                  <AppIcon packageName={a.packageName} title={a.name} icon={a.icon} size={32} />
                  {a.name}
                </span>
                <span className="num">{formatMinutes(a.minutes)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No data found.</p>
        )}
      </section>
      <section className="card" aria-labelledby="limits-title">
        <h2 id="limits-title">Limits reached</h2>
        {r.limitsHit.length ? (
          <ul className="report-list">
            {r.limitsHit.map((l, i) => (
              <li key={`${l.kind}-${l.name}-${l.day}-${i}`}>
                <span>
                  {l.name} <span className="muted">({dayName(l.day, "Monthly")})</span>
                </span>
                <span className="num">
                  {formatMinutes(l.minutes)} of {formatMinutes(l.limit)}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No limit was reached.</p>
        )}
      </section>
      <section className="card" aria-labelledby="requests-title">
        <h2 id="requests-title">Requests answered</h2>
        {r.requestsAnswered.length ? (
          <ul className="report-list">
            {r.requestsAnswered.map((q, i) => (
              <li key={`${q.packageName}-${q.at}-${i}`}>
                <span>
                  {q.type}: {q.name} <span className="muted">({formatDateTime(q.at)})</span>
                </span>
                <span className="num">{q.status}</span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">No request was answered.</p>
        )}
      </section>
    </article>
  );
}
