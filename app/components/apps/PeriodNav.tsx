import { Link } from "@remix-run/react";
import { ChevronIcon } from "~/components/dashboard/icons";
import { useHrefWith } from "~/components/dashboard/url";
import type { Period } from "~/rules/periods";

/** Day / Week and previous / next, all in the URL (spec 2 §4: Day steps 24 hours, Week toggles This/Previous Week). */
export function PeriodNav({ period }: { period: Pick<Period, "filter" | "label" | "prev" | "next"> }) {
  const to = useHrefWith();
  const isDay = period.filter === "day";
  return (
    <div className="row-between">
      <div className="segmented" role="group" aria-label="Period">
        <Link to={to({ filter: null, week: null, date: null })} aria-current={isDay ? "true" : undefined} preventScrollReset replace>
          Day
        </Link>
        <Link to={to({ filter: "week", week: null, date: null })} aria-current={!isDay ? "true" : undefined} preventScrollReset replace>
          Week
        </Link>
      </div>
      <div className="period-nav">
        {period.prev ? (
          <Link
            className="icon-btn"
            to={to({ date: period.prev.date ?? null, week: period.prev.week ?? null })}
            aria-label={isDay ? "Previous day" : "Previous Week"}
            preventScrollReset
            replace
          >
            <ChevronIcon dir="left" />
          </Link>
        ) : (
          <span className="icon-btn disabled" aria-hidden="true">
            <ChevronIcon dir="left" />
          </span>
        )}
        <strong className="period-label" data-testid="period-label">
          {period.label}
        </strong>
        {period.next ? (
          <Link
            className="icon-btn"
            to={to({ date: period.next.date ?? null, week: period.next.week === "current" ? null : (period.next.week ?? null) })}
            aria-label={isDay ? "Next day" : "This Week"}
            preventScrollReset
            replace
          >
            <ChevronIcon dir="right" />
          </Link>
        ) : (
          <span className="icon-btn disabled" aria-hidden="true">
            <ChevronIcon dir="right" />
          </span>
        )}
      </div>
    </div>
  );
}
