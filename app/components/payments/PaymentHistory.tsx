import { Link } from "@remix-run/react";
import { ReceiptIcon } from "~/components/dashboard/icons";

export interface PaymentLine {
  id: string;
  productName: string;
  imageUrl: string | null;
  isTrial: boolean;
  subscriptionCode: string | null;
  subscriptionCodeUsed: boolean;
  expired: boolean;
  expiryAt: string | null;
  profileName: string | null;
  serialNumber: string | null;
  unitAmount: number;
  status: string;
}

const day = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** Pounds from pence (spec 2 §9: unit_amount / 100). */
export function formatPounds(unitAmount: number): string {
  return `£${(unitAmount / 100).toFixed(2)}`;
}

function PaymentItem({ p }: { p: PaymentLine }) {
  // Spec 2 §2: 'Fail' is shown in the pending style, every other status as confirmed.
  const pending = p.status === "Fail" || p.status === "Pending";
  return (
    <li className="card pay-item" data-testid="payment-item">
      {p.imageUrl ? (
        <img src={p.imageUrl} alt="" width={48} height={48} />
      ) : (
        <span className="pay-icon">
          <ReceiptIcon />
        </span>
      )}
      <div>
        <h2>
          {p.productName}
          {p.isTrial ? <span className="badge badge-trial">Trial</span> : null}
        </h2>
        {p.subscriptionCode ? (
          <p className="pay-meta">
            Subscription code: <code>{p.subscriptionCode}</code>{" "}
            {p.subscriptionCodeUsed ? <span className="badge badge-used">Used</span> : null}{" "}
            {p.expired ? <span className="badge badge-expired">Expired</span> : null}
          </p>
        ) : null}
        {p.profileName || p.serialNumber ? (
          <p className="pay-meta">
            Device: {p.profileName ?? "—"}
            {p.serialNumber ? <> · {p.serialNumber}</> : null}
          </p>
        ) : null}
        {p.expiryAt ? <p className="pay-meta">Expires on {day.format(new Date(p.expiryAt))}</p> : null}
      </div>
      <div className="pay-side">
        {p.isTrial ? null : <span className="pay-price">{formatPounds(p.unitAmount)}</span>}
        <span className={`pay-status ${pending ? "pay-status-pending" : "pay-status-confirmed"}`}>{p.status}</span>
      </div>
    </li>
  );
}

export function PaymentHistory({
  payments,
  page,
  pages,
  shopUrl,
}: {
  payments: PaymentLine[];
  page: number;
  pages: number;
  shopUrl: string;
}) {
  if (payments.length === 0 && page === 1) {
    return (
      <section className="card center empty-state">
        <p>You have no payments yet.</p>
        <p>
          To protect a phone, choose a plan in our shop: <a href={shopUrl}>Buy a subscription</a>. A new plan starts with a free trial, and
          its payments appear here.
        </p>
      </section>
    );
  }
  return (
    <>
      <ul className="pay-list">
        {payments.map((p) => (
          <PaymentItem key={p.id} p={p} />
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="pager" aria-label="Pages">
          {page > 1 ? (
            <Link className="btn btn-outline btn-small" to={page === 2 ? "?" : `?page=${page - 1}`}>
              Previous
            </Link>
          ) : (
            <span />
          )}
          <span className="muted">
            Page {page} of {pages}
          </span>
          {page < pages ? (
            <Link className="btn btn-outline btn-small" to={`?page=${page + 1}`}>
              Next
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </>
  );
}
