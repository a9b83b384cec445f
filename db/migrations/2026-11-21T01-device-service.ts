import type { Kysely } from "kysely";

/**
 * The device service's own tables: the command outbox, versioned policies and their acknowledgements,
 * one-time enrollment tokens, message receipts (idempotent telemetry), app requests, browser visits,
 * device logs and install retries. Frozen in time: no app imports.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("device_commands")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // queued | sent | acknowledged | failed | expired
    .addColumn("policy_version", "integer")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("issued_by", "text")
    .addColumn("error", "text")
    .addColumn("result", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addColumn("completed_at", "text")
    .addColumn("expires_at", "text")
    .execute();
  await db.schema.createIndex("device_commands_device_idx").on("device_commands").columns(["device_id", "status", "created_at"]).execute();
  await db.schema.createIndex("device_commands_expiry_idx").on("device_commands").columns(["status", "expires_at"]).execute();

  await db.schema
    .createTable("device_policies")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("command_id", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("acknowledged_at", "text")
    .addPrimaryKeyConstraint("device_policies_pk", ["device_id", "version"])
    .execute();

  await db.schema
    .createTable("enrollment_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("parent_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .addColumn("device_id", "text")
    .execute();

  await db.schema
    .createTable("device_message_receipts")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_message_receipts_pk", ["device_id", "message_id"])
    .execute();

  await db.schema
    .createTable("app_requests")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("request_type", "text", (c) => c.notNull()) // App Install | App Uninstall | Extend Time
    .addColumn("status", "text", (c) => c.notNull().defaultTo("Pending")) // Pending | Approved | Rejected
    .addColumn("extended_time", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("remarks", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("app_requests_profile_idx").on("app_requests").columns(["profile_id", "status", "created_at"]).execute();

  await db.schema
    .createTable("browser_logs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull()) // 'YYYY-MM-DD' (UTC) of the visit
    .addColumn("is_blocked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("visits", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("browser_logs_device_url_day").on("browser_logs").columns(["device_id", "url", "day"]).unique().execute();
  await db.schema.createIndex("browser_logs_device_day_idx").on("browser_logs").columns(["device_id", "day"]).execute();

  await db.schema
    .createTable("device_logs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("title", "text")
    .addColumn("details", "text", (c) => c.notNull()) // JSON: key/value pairs and lists
    .addColumn("device_time", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("device_logs_device_idx").on("device_logs").columns(["device_id", "created_at"]).execute();

  await db.schema
    .createTable("install_retries")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // pending | done | gave_up
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("install_retries_pk", ["device_id", "package_name"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "install_retries",
    "device_logs",
    "browser_logs",
    "app_requests",
    "device_message_receipts",
    "enrollment_tokens",
    "device_policies",
    "device_commands",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
