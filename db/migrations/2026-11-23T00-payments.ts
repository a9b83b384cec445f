import type { Kysely } from "kysely";

// Frozen in time: no application imports. Payments: saved cards of the local provider (brand, last4, expiry and
// billing details only: never a number or CVC), one Stripe customer per parent, the payment history (written by
// the seed, the local provider and Stripe's webhooks) and the Stripe event ids already processed.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("payment_methods")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("brand", "text", (c) => c.notNull())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("exp_month", "integer", (c) => c.notNull())
    .addColumn("exp_year", "integer", (c) => c.notNull())
    .addColumn("billing_name", "text")
    .addColumn("billing_email", "text")
    .addColumn("address_line1", "text")
    .addColumn("address_line2", "text")
    .addColumn("address_city", "text")
    .addColumn("address_postal_code", "text")
    .addColumn("address_country", "text")
    .addColumn("is_default", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_methods_parent_idx").on("payment_methods").columns(["parent_id", "created_at"]).execute();

  await db.schema
    .createTable("payment_customers")
    .addColumn("parent_id", "text", (c) => c.primaryKey().references("parents.id").onDelete("cascade"))
    .addColumn("stripe_customer_id", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("payments")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    // The provider's own id (a Stripe invoice id), unique so a webhook redelivered or replayed updates in place.
    .addColumn("provider_ref", "text", (c) => c.unique())
    .addColumn("product_name", "text", (c) => c.notNull())
    .addColumn("image_url", "text")
    .addColumn("is_trial", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("subscription_code", "text")
    .addColumn("subscription_code_used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expiry_at", "text")
    .addColumn("profile_name", "text")
    .addColumn("serial_number", "text")
    .addColumn("unit_amount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("currency", "text", (c) => c.notNull().defaultTo("gbp"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payments_parent_created_idx").on("payments").columns(["parent_id", "created_at"]).execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["stripe_events", "payments", "payment_customers", "payment_methods"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
