import type { Generated, Selectable } from "kysely";

// ---- payments (migration 2026-11-23T00-payments); part of `Database` in schema.ts ----

/** A saved card of the local provider: never a number or CVC, only what a receipt shows. */
export interface PaymentMethodsTable {
  id: string;
  parent_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  billing_name: string | null;
  billing_email: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  is_default: Generated<number>;
  created_at: string;
}

/** One Stripe customer per parent (Stripe mode). */
export interface PaymentCustomersTable {
  parent_id: string;
  stripe_customer_id: string;
  created_at: string;
}

export type PaymentStatus = "Success" | "Pending" | "Fail";

/** A payment history line (spec 2 §3 Payment item); prices in pence (unit_amount). */
export interface PaymentsTable {
  id: string;
  parent_id: string;
  provider_ref: string | null;
  product_name: string;
  image_url: string | null;
  is_trial: Generated<number>;
  subscription_code: string | null;
  subscription_code_used: Generated<number>;
  expiry_at: string | null;
  profile_name: string | null;
  serial_number: string | null;
  unit_amount: Generated<number>;
  currency: Generated<string>;
  status: PaymentStatus;
  created_at: string;
}

/** Stripe webhook event ids already processed (idempotency and replay refusal). */
export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: string;
}

/** The payments tables; `Database` in schema.ts extends this. */
export interface PaymentsDatabase {
  payment_methods: PaymentMethodsTable;
  payment_customers: PaymentCustomersTable;
  payments: PaymentsTable;
  stripe_events: StripeEventsTable;
}

export type PaymentMethodRow = Selectable<PaymentMethodsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
