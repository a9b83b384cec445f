import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { SubmitButton } from "~/components/forms";
import { statusBadgeColour } from "~/rules/delegation";
import { useIsSubmitting } from "~/utils/hooks";
import type { ProfileData } from "./ProfileView";

type Row = ProfileData["given"][number];

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-${statusBadgeColour(status)}`} data-testid="status-badge">
      {status}
    </span>
  );
}

const accessLabel = (level: string) => (level === "full" ? "Full" : level);
const kidsLabel = (row: Row) => row.kids.map((k) => k.name).join(", ") || "—";

/**
 * One delegation table (both of /parent-profile's): who, access level, kids, status badge and the row's action;
 * its empty state when there are no rows. `side` names the ids and test ids ("delegated", "received").
 */
function AccessTable(p: {
  side: "delegated" | "received";
  title: string;
  headAction?: ReactNode;
  empty: string;
  personHeading: string;
  kidsHeading: string;
  rows: Row[];
  person: (r: Row) => { name: string; email: string };
  action: (r: Row) => ReactNode;
}) {
  const titleId = `${p.side}-title`;
  const heading = <h2 id={titleId}>{p.title}</h2>;
  return (
    <section className="card stack" aria-labelledby={titleId}>
      {p.headAction ? (
        <div className="section-head">
          {heading}
          {p.headAction}
        </div>
      ) : (
        heading
      )}
      {p.rows.length === 0 ? (
        <p className="muted">{p.empty}</p>
      ) : (
        <div className="table-wrap">
          <table className="profile-table" aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">{p.personHeading}</th>
                <th scope="col">Access level</th>
                <th scope="col">{p.kidsHeading}</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.rows.map((r) => {
                const who = p.person(r);
                return (
                  <tr key={r.id} data-testid={`${p.side}-row`}>
                    <td>
                      {who.name}
                      <div className="muted small">{who.email}</div>
                    </td>
                    <td>{accessLabel(r.accessLevel)}</td>
                    <td>{kidsLabel(r)}</td>
                    <td>
                      <StatusBadge status={r.status} />
                    </td>
                    <td>{p.action(r)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** 'Delegated Access': user, access level, allowed kids, status, Revoke (through the confirm modal), and Add Access. */
export function DelegatedAccessTable({ rows }: { rows: Row[] }) {
  return (
    <AccessTable
      side="delegated"
      title="Delegated Access"
      headAction={
        <Link to="?modal=add" className="btn" preventScrollReset>
          Add Access
        </Link>
      }
      empty="You haven't given anyone access yet."
      personHeading="User"
      kidsHeading="Allowed kids"
      rows={rows}
      person={(r) => ({ name: r.delegateName, email: r.delegateEmail })}
      action={(r) =>
        r.status === "Pending" || r.status === "Accepted" ? (
          <Link
            to={`?confirm=revoke&id=${r.id}`}
            className="btn btn-outline btn-small"
            preventScrollReset
            aria-label={`Revoke ${r.delegateName}`}
          >
            Revoke
          </Link>
        ) : null
      }
    />
  );
}

/** 'Access Received from Others': who gave it, kids, status; Accept and Reject for pending items. */
export function ReceivedAccessTable({ rows, verified }: { rows: Row[]; verified: boolean }) {
  const busyAccept = useIsSubmitting({ intent: "accept" });
  return (
    <AccessTable
      side="received"
      title="Access Received from Others"
      empty="Nobody has given you access to their kids."
      personHeading="From"
      kidsHeading="Kids"
      rows={rows}
      person={(r) => ({ name: r.ownerName, email: r.ownerEmail })}
      action={(r) =>
        r.status === "Pending" ? (
          <div className="row-actions">
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="accept" />
              <input type="hidden" name="id" value={r.id} />
              <SubmitButton
                busy={busyAccept}
                className="btn btn-small"
                disabled={!verified}
                title={verified ? undefined : "Verify your email address first"}
              >
                Accept
              </SubmitButton>
            </Form>
            <Link to={`?confirm=reject&id=${r.id}`} className="btn btn-outline btn-small" preventScrollReset>
              Reject
            </Link>
          </div>
        ) : null
      }
    />
  );
}
