import { json, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { listPayments, PAYMENTS_PAGE_SIZE } from "#db/queries/payments";
import { PaymentHistory, type PaymentLine } from "~/components/payments/PaymentHistory";
import paymentStyles from "../styles/payments.css?url";
import { requireParent } from "~/utils/auth.server";
import { ChevronIcon } from "~/components/dashboard/icons";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: paymentStyles }];
export const meta: MetaFunction = () => [{ title: "Payment History · Kids Portal" }];

/** The parent's transactions from our own table (the seed, the local provider, Stripe's webhooks), newest first. */
export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const raw = Number(new URL(args.request.url).searchParams.get("page") ?? "1");
  const page = Number.isInteger(raw) && raw >= 1 && raw <= 10_000 ? raw : 1;
  const { rows, total } = await listPayments(args.context.services.db, parent.id, page, PAYMENTS_PAGE_SIZE);
  const now = Date.now();
  const payments: PaymentLine[] = rows.map((r) => ({
    id: r.id,
    productName: r.product_name,
    imageUrl: r.image_url,
    isTrial: Boolean(r.is_trial),
    subscriptionCode: r.subscription_code,
    subscriptionCodeUsed: Boolean(r.subscription_code_used),
    expired: r.expiry_at != null && Date.parse(r.expiry_at) < now,
    expiryAt: r.expiry_at,
    profileName: r.profile_name,
    serialNumber: r.serial_number,
    unitAmount: r.unit_amount,
    status: r.status,
  }));
  return json({ payments, page, pages: Math.max(1, Math.ceil(total / PAYMENTS_PAGE_SIZE)), shopUrl: args.context.services.env.SHOP_URL });
}

export default function PaymentHistoryPage() {
  const { payments, page, pages, shopUrl } = useLoaderData<typeof loader>();
  return (
    <section className="stack">
      <Link to="/kids-device" className="back-link">
        <ChevronIcon dir="left" /> Back to Home
      </Link>
      <h1>Payment History</h1>
      <PaymentHistory payments={payments} page={page} pages={pages} shopUrl={shopUrl} />
    </section>
  );
}
