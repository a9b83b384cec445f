import type { Kysely } from "kysely";

// Frozen in time: no application imports. Web Push for the alerts (issue 55).
//
// - push_subscriptions: one row per browser a parent allowed. `endpoint` (the push service's URL for that browser) is
//   unique: one browser belongs to one parent; `p256dh` (65-byte P-256 point) and `auth` (16-byte secret) base64url,
//   the keys the payload is encrypted to; `label` names the browser for the parent ("Chrome on Android").
//   `last_success_at` is the last time the push service accepted a message for it.
// - push_deliveries: which subscription already took which alert, so a retried delivery skips the browsers that got
//   it. Rows go with their subscription; old ones are pruned (prunePushDeliveries).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("push_subscriptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("endpoint", "text", (c) => c.notNull().unique())
    .addColumn("p256dh", "text", (c) => c.notNull())
    .addColumn("auth", "text", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_success_at", "text")
    .execute();
  await db.schema.createIndex("push_subscriptions_parent").on("push_subscriptions").column("parent_id").execute();
  await db.schema
    .createTable("push_deliveries")
    .addColumn("alert_id", "text", (c) => c.notNull())
    .addColumn("subscription_id", "text", (c) => c.notNull().references("push_subscriptions.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("push_deliveries_pk", ["alert_id", "subscription_id"])
    .execute();
  await db.schema.createIndex("push_deliveries_created").on("push_deliveries").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("push_deliveries").ifExists().execute();
  await db.schema.dropTable("push_subscriptions").ifExists().execute();
}
