import { json, type ActionFunctionArgs } from "@remix-run/node";
import { paymentsFor } from "~/payments/index.server";

/**
 * Stripe's webhook (POST /webhooks/stripe). Not a parent's page: Stripe authenticates each delivery with the
 * Stripe-Signature header over the raw body (request.text() is the raw body), checked against
 * STRIPE_WEBHOOK_SECRET; each event id is processed once (app/payments/stripe.server.ts handleWebhook).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const payments = paymentsFor(context.services);
  if (payments.kind !== "stripe") return json({ error: "Stripe is not configured." }, { status: 404 });
  if (request.method !== "POST") return json({ error: "Method not allowed." }, { status: 405 });
  const r = await payments.handleWebhook(await request.text(), request.headers.get("stripe-signature"));
  return json(r.status === 200 ? { received: true, message: r.message } : { error: r.message }, { status: r.status });
}
