import { Link } from "@remix-run/react";
import { Modal } from "~/components/layout";
import { formatDateTime as fmtDateTime } from "#core/format";
import { InfoIcon } from "../icons";
import type { DashData } from "../types";
import { useHrefWith } from "../url";

/** ?modal=notifications: the kid's notifications, newest first, 20 more per "Load more". */
export function NotificationsModal({ data }: { data: DashData }) {
  const to = useHrefWith();
  const n = data.notifications;
  return (
    <Modal title="Notifications" closeHref={to({ modal: null, npage: null })}>
      {n && n.items.length ? (
        <>
          <ul className="notification-list" data-testid="notifications">
            {n.items.map((item) => (
              <li key={item.id} className={`notification type-${item.type}`}>
                <InfoIcon />
                <div>
                  <p>{item.message}</p>
                  <p className="muted small">{fmtDateTime(item.created_at)}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="muted small">
            Showing {n.items.length} of {n.total}
          </p>
          {n.items.length < n.total ? (
            <Link className="btn btn-outline btn-small" to={to({ npage: n.pages + 1 })} preventScrollReset replace>
              Load more
            </Link>
          ) : null}
        </>
      ) : (
        <p className="muted">No notifications yet.</p>
      )}
    </Modal>
  );
}
