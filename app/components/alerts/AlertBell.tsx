import { Link, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { BellIcon } from "~/components/dashboard/icons";

/**
 * The header's bell: the parent's unread alerts, a link to the alert centre (/alerts). With JavaScript it listens on
 * GET /events and reloads the count when a new alert arrives (the `alert` event, app/utils/sse.server.ts); without it,
 * the count is as of the page's load.
 */
export function AlertBell({ unread }: { unread: number }) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/events");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAlert = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (latest.current.state === "idle") latest.current.revalidate();
      }, 150);
    };
    source.addEventListener("alert", onAlert);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, []);
  const label = unread ? `Alerts, ${unread} unread` : "Alerts, none unread";
  return (
    <Link to="/alerts" className="alert-bell icon-btn" aria-label={label} title={label} data-testid="alert-bell">
      <BellIcon />
      {unread > 0 ? (
        <span className="alert-count" data-testid="alert-count" aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
