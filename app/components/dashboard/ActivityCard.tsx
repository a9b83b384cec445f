import { Link } from "@remix-run/react";
import { CategoryChartFigure } from "~/components/charts/CategoryBarChart";
import { formatMinutes } from "~/rules/minutes";
import { ChevronIcon } from "./icons";
import type { DashData } from "./types";
import { useHrefWith } from "./url";

/** Activity: Day / Week, the period's arrows and label, the screen time and the stacked category chart. */
export function ActivityCard({ data, usage }: { data: DashData; usage: NonNullable<DashData["usage"]> }) {
  const to = useHrefWith();
  return (
    <section className="card" id="activity" aria-labelledby="activity-title">
      <div className="row-between">
        <h2 id="activity-title">Activity</h2>
        <div className="segmented" role="group" aria-label="Period">
          <Link
            to={to({ filter: null, week: null, date: null, apps: null, cats: null })}
            aria-current={data.period.filter === "day" ? "true" : undefined}
            preventScrollReset
          >
            Day
          </Link>
          <Link
            to={to({ filter: "week", week: null, date: null, apps: null, cats: null })}
            aria-current={data.period.filter === "week" ? "true" : undefined}
            preventScrollReset
          >
            Week
          </Link>
        </div>
      </div>
      <div className="period-nav">
        {data.period.prev ? (
          <Link
            className="icon-btn"
            to={to({ date: data.period.prev.date ?? null, week: data.period.prev.week ?? null })}
            aria-label={data.period.filter === "day" ? "Previous day" : "Previous Week"}
            preventScrollReset
          >
            <ChevronIcon dir="left" />
          </Link>
        ) : (
          <span className="icon-btn disabled" aria-hidden="true">
            <ChevronIcon dir="left" />
          </span>
        )}
        <strong className="period-label" aria-live="polite" data-testid="period-label">
          {data.period.label}
        </strong>
        {data.period.next ? (
          <Link
            className="icon-btn"
            to={to({
              date: data.period.next.date ?? null,
              week: data.period.next.week === "current" ? null : (data.period.next.week ?? null),
            })}
            aria-label={data.period.filter === "day" ? "Next day" : "This Week"}
            preventScrollReset
          >
            <ChevronIcon dir="right" />
          </Link>
        ) : (
          <span className="icon-btn disabled" aria-hidden="true">
            <ChevronIcon dir="right" />
          </span>
        )}
      </div>
      <p className="total-time">
        <span className="muted">Screen time</span> <strong data-testid="total-time">{formatMinutes(usage.totalUsedTime)}</strong>
      </p>
      <CategoryChartFigure svg={usage.chartSvg} data={usage.chart} title={usage.chartTitle} period={data.period} />
    </section>
  );
}
