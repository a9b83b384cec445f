import type { Kysely } from "kysely";

// Frozen in time: no application imports. Webhooks and the Home Assistant bridge (issue 56 items 4 and 5).
//
// - webhook_endpoints: a parent's endpoint. `secret` is the Standard Webhooks signing secret (`whsec_…`, shown once
//   when made); `event_types` a JSON array of the types it gets; `enabled` 0/1; `failure_count` the deliveries that
//   failed in a row (every attempt); at the limit the endpoint is switched off (`disabled_at`, `disabled_reason`).
// - webhook_deliveries: one event for one endpoint (unique endpoint × event: recording it twice sends it once).
//   `state`: pending (waiting for `next_at`), sending, delivered, failed (every attempt failed), cancelled (endpoint
//   switched off or deleted). `status_code` and `error` of the last attempt, `attempts` so far.
// - home_assistant_settings: a family's Home Assistant bridge over MQTT: on or off, and the topic prefix.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("event_types", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("failure_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("disabled_at", "text")
    .addColumn("disabled_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoints_parent").on("webhook_endpoints").column("parent_id").execute();
  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("state", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("next_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("webhook_deliveries_endpoint_event", ["endpoint_id", "event_id"])
    .execute();
  await db.schema.createIndex("webhook_deliveries_state_next").on("webhook_deliveries").columns(["state", "next_at"]).execute();
  await db.schema
    .createIndex("webhook_deliveries_endpoint_created")
    .on("webhook_deliveries")
    .columns(["endpoint_id", "created_at"])
    .execute();
  await db.schema
    .createTable("home_assistant_settings")
    .addColumn("parent_id", "text", (c) => c.primaryKey().references("parents.id").onDelete("cascade"))
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("topic_prefix", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("home_assistant_settings").ifExists().execute();
  await db.schema.dropTable("webhook_deliveries").ifExists().execute();
  await db.schema.dropTable("webhook_endpoints").ifExists().execute();
}
