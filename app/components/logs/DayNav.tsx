import { Link } from "@remix-run/react";
import { formatDayLabel } from "#core/format";
import { ChevronIcon } from "~/components/dashboard/icons";

/** Previous / next day (one day, spec 2 §9), carried in the URL as `date`; the next day stops at today. */
export function DayNav({
  day,
  prevHref,
  nextHref,
  label = "Day",
}: {
  day: string;
  prevHref: string;
  nextHref: string | null;
  label?: string;
}) {
  return (
    <nav className="day-nav" aria-label={label}>
      <Link to={prevHref} className="btn btn-outline btn-small" rel="prev" preventScrollReset>
        <ChevronIcon dir="left" /> Previous day
      </Link>
      <strong aria-live="polite">{formatDayLabel(new Date(`${day}T00:00:00Z`))}</strong>
      {nextHref ? (
        <Link to={nextHref} className="btn btn-outline btn-small" rel="next" preventScrollReset>
          Next day <ChevronIcon dir="right" />
        </Link>
      ) : (
        <span className="btn btn-outline btn-small" aria-disabled="true">
          Next day <ChevronIcon dir="right" />
        </span>
      )}
    </nav>
  );
}
