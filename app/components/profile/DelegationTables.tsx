import { Form, Link } from "@remix-run/react";
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

/** 'Delegated Access': user, access level, allowed kids, status, Revoke (through the confirm modal), and Add Access. */
export function DelegatedAccessTable({ rows }: { rows: Row[] }) {
  return (
    <section className="card stack" aria-labelledby="delegated-title">
      <div className="section-head">
        <h2 id="delegated-title">Delegated Access</h2>
        <Link to="?modal=add" className="btn" preventScrollReset>
          Add Access
        </Link>
      </div>
      {rows.length === 0 ? (
        <p className="muted">You haven&apos;t given anyone access yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="profile-table" aria-labelledby="delegated-title">
            <thead>
              <tr>
                <th scope="col">User</th>
                <th scope="col">Access level</th>
                <th scope="col">Allowed kids</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="delegated-row">
                  <td>
                    {r.delegateName}
                    <div className="muted small">{r.delegateEmail}</div>
                  </td>
                  <td>{accessLabel(r.accessLevel)}</td>
                  <td>{kidsLabel(r)}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    {r.status === "Pending" || r.status === "Accepted" ? (
                      <Link to={`?confirm=revoke&id=${r.id}`} className="btn btn-outline btn-small" preventScrollReset aria-label={`Revoke ${r.delegateName}`}>
                        Revoke
                      </Link>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** 'Access Received from Others': who gave it, kids, status; Accept and Reject for pending items. */
export function ReceivedAccessTable({ rows, verified }: { rows: Row[]; verified: boolean }) {
  const busyAccept = useIsSubmitting({ intent: "accept" });
  return (
    <section className="card stack" aria-labelledby="received-title">
      <h2 id="received-title">Access Received from Others</h2>
      {rows.length === 0 ? (
        <p className="muted">Nobody has given you access to their kids.</p>
      ) : (
        <div className="table-wrap">
          <table className="profile-table" aria-labelledby="received-title">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">Access level</th>
                <th scope="col">Kids</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} data-testid="received-row">
                  <td>
                    {r.ownerName}
                    <div className="muted small">{r.ownerEmail}</div>
                  </td>
                  <td>{accessLabel(r.accessLevel)}</td>
                  <td>{kidsLabel(r)}</td>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td>
                    {r.status === "Pending" ? (
                      <div className="row-actions">
                        <Form method="post" preventScrollReset>
                          <input type="hidden" name="intent" value="accept" />
                          <input type="hidden" name="id" value={r.id} />
                          <SubmitButton busy={busyAccept} className="btn btn-small" disabled={!verified} title={verified ? undefined : "Verify your email address first"}>
                            Accept
                          </SubmitButton>
                        </Form>
                        <Link to={`?confirm=reject&id=${r.id}`} className="btn btn-outline btn-small" preventScrollReset>
                          Reject
                        </Link>
                      </div>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
