import Stripe from "stripe";
import type { DB } from "#db/index";
import {
  claimStripeEvent,
  getStripeCustomerId,
  parentOfStripeCustomer,
  releaseStripeEvent,
  saveStripeCustomerId,
  upsertPayment,
  type PaymentInput,
} from "#db/queries/payments";
import type { Logger } from "#core/log";
import { duplicateCardMessage, sameCard } from "./card";
import {
  CARD_NOT_FOUND,
  DEFAULT_CARD_KEPT,
  PAYMENTS_UNAVAILABLE,
  type CardView,
  type Outcome,
  type PayingParent,
  type StripePayments,
} from "./provider.server";

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** For tests and local doubles: e.g. http://127.0.0.1:12111 (empty: Stripe's own API). */
  apiBase?: string;
}

/** Seconds a signed webhook stays acceptable (Stripe's default): an older signature is a replay. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export const SETUP_FAILED = "Your card could not be saved. Please try again or use another card.";

export function stripeClient(config: Pick<StripeConfig, "secretKey" | "apiBase">): Stripe {
  if (!config.apiBase) return new Stripe(config.secretKey, { maxNetworkRetries: 1, timeout: 15_000 });
  const u = new URL(config.apiBase);
  return new Stripe(config.secretKey, {
    host: u.hostname,
    port: u.port || (u.protocol === "https:" ? 443 : 80),
    protocol: u.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 0,
    timeout: 15_000,
  });
}

function idOf(x: string | { id: string } | null | undefined): string | null {
  return x == null ? null : typeof x === "string" ? x : x.id;
}

const iso = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toISOString() : null);

/** A Stripe invoice (and its subscription) as one payment history line; drafts and voided invoices are skipped. */
export function invoiceToPayment(parentId: string, inv: Stripe.Invoice, sub: Stripe.Subscription | undefined): PaymentInput | null {
  if (!inv.id || inv.status === "draft" || inv.status === "void") return null;
  const meta = { ...(inv.parent?.subscription_details?.metadata ?? {}), ...(sub?.metadata ?? {}) };
  const line = inv.lines?.data?.[0];
  const status = inv.status === "paid" ? "Success" : inv.status === "uncollectible" || (inv.attempt_count ?? 0) > 0 ? "Fail" : "Pending";
  const isTrial = Boolean(sub?.trial_end) && inv.total === 0;
  const periodEnd = sub?.items?.data?.[0]?.current_period_end ?? line?.period?.end ?? inv.period_end;
  return {
    parent_id: parentId,
    provider_ref: inv.id,
    product_name: meta.product_name || line?.description || inv.description || "Kids Portal subscription",
    image_url: meta.image_url || null,
    is_trial: isTrial,
    subscription_code: meta.subscription_code || null,
    subscription_code_used: meta.subscription_code_used === "true",
    expiry_at: iso(isTrial ? (sub?.trial_end ?? periodEnd) : periodEnd),
    profile_name: meta.profile_name || null,
    serial_number: meta.serial_number || null,
    unit_amount: inv.total ?? 0,
    currency: inv.currency ?? "gbp",
    status,
    created_at: iso(inv.created) ?? new Date().toISOString(),
  };
}

/**
 * The Stripe adapter. One customer per parent (kept in payment_customers); cards are Stripe payment methods
 * (added by a SetupIntent in the browser, or a Checkout session in setup mode without JavaScript); the default is
 * the customer's invoice default payment method; history comes from invoices and subscriptions, kept current
 * by signature-checked webhooks into our own table.
 */
export function createStripePayments({ db, log, config }: { db: DB; log: Logger; config: StripeConfig }): StripePayments {
  const stripe = stripeClient(config);

  /** A Stripe failure as a plain message: a card error is Stripe's own sentence, anything else a general one. */
  function fail<T>(what: string, err: unknown): Outcome<T> {
    if (err instanceof Stripe.errors.StripeCardError) return { ok: false, message: err.message };
    log("error", `stripe: ${what} failed`, {
      error: err instanceof Error ? err.message : String(err),
      type: (err as { type?: string })?.type,
    });
    return { ok: false, message: PAYMENTS_UNAVAILABLE };
  }

  async function customerFor(parent: PayingParent): Promise<string> {
    const known = await getStripeCustomerId(db, parent.id);
    if (known) return known;
    const c = await stripe.customers.create(
      { email: parent.email, name: parent.name, metadata: { parent_id: parent.id } },
      { idempotencyKey: `kp-customer-${parent.id}` },
    );
    return saveStripeCustomerId(db, parent.id, c.id);
  }

  /** The customer's cards, with Stripe's fingerprint of each number (the same card saved twice has one fingerprint). */
  async function cards(customerId: string): Promise<(CardView & { fingerprint: string | null })[]> {
    const [customer, methods] = await Promise.all([
      stripe.customers.retrieve(customerId),
      stripe.paymentMethods.list({ customer: customerId, type: "card", limit: 100 }),
    ]);
    const def =
      "deleted" in customer && customer.deleted ? null : idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method);
    return methods.data.map((pm) => ({
      id: pm.id,
      brand: pm.card?.brand ?? "card",
      last4: pm.card?.last4 ?? "????",
      exp_month: pm.card?.exp_month ?? 0,
      exp_year: pm.card?.exp_year ?? 0,
      fingerprint: pm.card?.fingerprint ?? null,
      isDefault: pm.id === def,
      billing: {
        name: pm.billing_details.name,
        email: pm.billing_details.email,
        line1: pm.billing_details.address?.line1 ?? null,
        line2: pm.billing_details.address?.line2 ?? null,
        city: pm.billing_details.address?.city ?? null,
        postal_code: pm.billing_details.address?.postal_code ?? null,
        country: pm.billing_details.address?.country ?? null,
      },
    }));
  }

  async function syncCustomer(parentId: string, customerId: string): Promise<number> {
    const [subs, invoices] = await Promise.all([
      stripe.subscriptions.list({ customer: customerId, status: "all", limit: 100 }),
      stripe.invoices.list({ customer: customerId, limit: 100 }),
    ]);
    const byId = new Map(subs.data.map((s) => [s.id, s]));
    let n = 0;
    for (const inv of invoices.data) {
      const subId = idOf(inv.parent?.subscription_details?.subscription);
      const row = invoiceToPayment(parentId, inv, subId ? byId.get(subId) : undefined);
      if (!row) continue;
      await upsertPayment(db, row);
      n++;
    }
    return n;
  }

  return {
    kind: "stripe",
    publishableKey: config.publishableKey,
    async listCards(parent) {
      const customerId = await getStripeCustomerId(db, parent.id);
      return customerId ? (await cards(customerId)).map(({ fingerprint: _, ...card }) => card) : [];
    },
    async setDefault(parent, id) {
      try {
        const customerId = await getStripeCustomerId(db, parent.id);
        const own = customerId ? (await cards(customerId)).find((c) => c.id === id) : undefined;
        if (!customerId || !own) return { ok: false, message: CARD_NOT_FOUND, notFound: true };
        await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: id } });
        return { ok: true, value: undefined };
      } catch (err) {
        return fail("set default", err);
      }
    },
    async remove(parent, id) {
      try {
        const customerId = await getStripeCustomerId(db, parent.id);
        const own = customerId ? (await cards(customerId)).find((c) => c.id === id) : undefined;
        if (!customerId || !own) return { ok: false, message: CARD_NOT_FOUND, notFound: true };
        if (own.isDefault) return { ok: false, message: DEFAULT_CARD_KEPT };
        await stripe.paymentMethods.detach(id);
        return { ok: true, value: undefined };
      } catch (err) {
        return fail("detach", err);
      }
    },
    async createSetupIntent(parent) {
      try {
        const customer = await customerFor(parent);
        const si = await stripe.setupIntents.create({
          customer,
          usage: "off_session",
          payment_method_types: ["card"],
          metadata: { parent_id: parent.id },
        });
        if (!si.client_secret) return { ok: false, message: PAYMENTS_UNAVAILABLE };
        return { ok: true, value: { clientSecret: si.client_secret } };
      } catch (err) {
        return fail("setup intent", err);
      }
    },
    async createCheckoutSession(parent, origin) {
      try {
        const customer = await customerFor(parent);
        const session = await stripe.checkout.sessions.create({
          mode: "setup",
          customer,
          currency: "gbp",
          payment_method_types: ["card"],
          success_url: `${origin}/payment-methods?checkout_session={CHECKOUT_SESSION_ID}`,
          cancel_url: `${origin}/payment-methods`,
          metadata: { parent_id: parent.id },
        });
        if (!session.url) return { ok: false, message: PAYMENTS_UNAVAILABLE };
        return { ok: true, value: { url: session.url } };
      } catch (err) {
        return fail("checkout session", err);
      }
    },
    async completeSetup(parent, ref) {
      try {
        const customerId = await getStripeCustomerId(db, parent.id);
        if (!customerId) return { ok: false, message: SETUP_FAILED };
        let setupIntentId = ref.setupIntentId ?? null;
        if (ref.checkoutSessionId) {
          const session = await stripe.checkout.sessions.retrieve(ref.checkoutSessionId);
          if (idOf(session.customer) !== customerId) return { ok: false, message: SETUP_FAILED };
          setupIntentId = idOf(session.setup_intent);
        }
        if (!setupIntentId) return { ok: false, message: SETUP_FAILED };
        const si = await stripe.setupIntents.retrieve(setupIntentId);
        if (idOf(si.customer) !== customerId) return { ok: false, message: SETUP_FAILED };
        if (si.status !== "succeeded") return { ok: false, message: si.last_setup_error?.message ?? SETUP_FAILED };
        const pm = idOf(si.payment_method);
        if (!pm) return { ok: false, message: SETUP_FAILED };
        const have = await cards(customerId);
        let added: { brand: string; last4: string; exp_month: number; exp_year: number; fingerprint: string | null } | undefined =
          have.find((c) => c.id === pm);
        if (!added) {
          const attached = await stripe.paymentMethods.attach(pm, { customer: customerId });
          added = {
            brand: attached.card?.brand ?? "card",
            last4: attached.card?.last4 ?? "????",
            exp_month: attached.card?.exp_month ?? 0,
            exp_year: attached.card?.exp_year ?? 0,
            fingerprint: attached.card?.fingerprint ?? null,
          };
        }
        // The same card saved twice could not be told apart (nor the right one deleted): the new one is taken off again.
        const card = added;
        const twin = have.find(
          (c) => c.id !== pm && sameCard(c, card) && (!card.fingerprint || !c.fingerprint || c.fingerprint === card.fingerprint),
        );
        if (twin) {
          await stripe.paymentMethods.detach(pm);
          return { ok: false, message: duplicateCardMessage(card) };
        }
        if (!have.some((c) => c.isDefault)) await stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm } });
        return { ok: true, value: undefined };
      } catch (err) {
        return fail("complete setup", err);
      }
    },
    async syncHistory(parentId) {
      const customerId = await getStripeCustomerId(db, parentId);
      return customerId ? syncCustomer(parentId, customerId) : 0;
    },
    async handleWebhook(rawBody, signature) {
      let event: Stripe.Event;
      try {
        if (!signature) throw new Error("missing Stripe-Signature");
        event = stripe.webhooks.constructEvent(rawBody, signature, config.webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch {
        log("warn", "stripe webhook refused: bad signature");
        return { status: 400, message: "Invalid signature." };
      }
      if (!(await claimStripeEvent(db, event.id, event.type))) return { status: 200, message: "Already processed." };
      try {
        const obj = event.data.object as { customer?: string | { id: string } | null; object?: string };
        const customerId = event.type.startsWith("invoice.") || event.type.startsWith("customer.subscription.") ? idOf(obj.customer) : null;
        const parentId = customerId ? await parentOfStripeCustomer(db, customerId) : null;
        if (parentId && customerId) await syncCustomer(parentId, customerId);
        return { status: 200, message: "Processed." };
      } catch (err) {
        await releaseStripeEvent(db, event.id);
        log("error", "stripe webhook processing failed", {
          event: event.id,
          type: event.type,
          error: err instanceof Error ? err.message : String(err),
        });
        return { status: 500, message: "Processing failed; Stripe will retry." };
      }
    },
  };
}
