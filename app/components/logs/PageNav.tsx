import { Link } from "@remix-run/react";
import { ChevronIcon } from "~/components/dashboard/icons";

/**
 * Pages of a long list (the page is in the URL, so it works without JavaScript): a link to the page before and the
 * page after, when there is one. Nothing when the list fits on one page.
 */
export function PageNav({
  page,
  newerHref,
  olderHref,
  label,
  newer,
  older,
}: {
  page: number;
  newerHref: string | null;
  olderHref: string | null;
  label: string;
  newer: string;
  older: string;
}) {
  if (!newerHref && !olderHref) return null;
  return (
    <nav className="day-nav" aria-label={label}>
      {newerHref ? (
        <Link to={newerHref} className="btn btn-outline btn-small" rel="prev">
          <ChevronIcon dir="left" /> {newer}
        </Link>
      ) : (
        <span className="btn btn-outline btn-small" aria-disabled="true">
          <ChevronIcon dir="left" /> {newer}
        </span>
      )}
      <strong>Page {page}</strong>
      {olderHref ? (
        <Link to={olderHref} className="btn btn-outline btn-small" rel="next">
          {older} <ChevronIcon dir="right" />
        </Link>
      ) : (
        <span className="btn btn-outline btn-small" aria-disabled="true">
          {older} <ChevronIcon dir="right" />
        </span>
      )}
    </nav>
  );
}
