/**
 * The payments port: what the pages need from a payments provider. Two adapters, chosen by PAYMENTS_PROVIDER
 * like the mail and push transports: `local` (a fresh machine, demos, tests; keeps brand/last4/expiry only) and
 * `stripe` (production; card data goes from the browser to Stripe and never reaches this server).
 */
export interface PayingParent {
  id: string;
  email: string;
  name: string;
}

export interface BillingDetails {
  name: string | null;
  email: string | null;
  line1: string | null;
  line2: string | null;
  city: string | null;
  postal_code: string | null;
  country: string | null;
}

/** Spec 2 §3 Payment method: id, card (brand, last4, exp_month, exp_year), billing_details; the list has the default. */
export interface CardView {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  isDefault: boolean;
  billing: BillingDetails;
}

/** A provider's outcome people can read: a card or payment error is the provider's plain message. */
export type Outcome<T = void> = { ok: true; value: T } | { ok: false; message: string; notFound?: boolean };

export interface CommonPayments {
  listCards(parent: PayingParent): Promise<CardView[]>;
  /** Makes one of the parent's own cards the default; another parent's card id is `notFound`. */
  setDefault(parent: PayingParent, id: string): Promise<Outcome>;
  /** Removes one of the parent's own cards (never the default); another parent's card id is `notFound`. */
  remove(parent: PayingParent, id: string): Promise<Outcome>;
}

export interface LocalCardInput {
  card_name: string;
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export type CardFieldErrors = Partial<Record<"card_name" | "number" | "exp_month" | "exp_year" | "cvc", string[]>>;

export interface LocalPayments extends CommonPayments {
  kind: "local";
  /** Checks the number (never keeps, logs or returns it) and keeps brand, last4, expiry and billing details. */
  addCard(
    parent: PayingParent,
    input: LocalCardInput,
  ): Promise<{ ok: true; card: CardView } | { ok: false; fieldErrors: CardFieldErrors; message?: string }>;
}

export interface StripePayments extends CommonPayments {
  kind: "stripe";
  publishableKey: string;
  /** A SetupIntent for Stripe's Payment Element (JavaScript on). */
  createSetupIntent(parent: PayingParent): Promise<Outcome<{ clientSecret: string }>>;
  /** A Checkout session in setup mode (JavaScript off): the browser goes there and comes back to `returnUrl`. */
  createCheckoutSession(parent: PayingParent, origin: string): Promise<Outcome<{ url: string }>>;
  /** After the browser came back: checks the SetupIntent succeeded for this parent, attaches and defaults the card. */
  completeSetup(parent: PayingParent, ref: { setupIntentId?: string; checkoutSessionId?: string }): Promise<Outcome>;
  /** Re-reads the customer's invoices and subscriptions into the payments table. */
  syncHistory(parentId: string): Promise<number>;
  /** Verifies a webhook (Stripe's signature scheme), once per event id. */
  handleWebhook(rawBody: string, signature: string | null): Promise<WebhookOutcome>;
}

export type WebhookOutcome = { status: 200; message: string } | { status: 400 | 500; message: string };

export type PaymentsProvider = LocalPayments | StripePayments;

export const PAYMENTS_UNAVAILABLE = "Payments are unavailable right now. Please try again in a few minutes.";
export const CARD_NOT_FOUND = "That card was not found.";
export const DEFAULT_CARD_KEPT = "The default card cannot be deleted. Mark another card as default first.";
