import type { Kysely } from "kysely";

// Frozen in time: no application imports. Account flows: mail outbox, single-use links, OTP codes,
// one-time sign-in tokens and rate-limit counters (kept in the database so every process shares them).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mail_outbox")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("mail_outbox_created_idx").on("mail_outbox").column("created_at").execute();

  await db.schema
    .createTable("used_links")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("used_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("otp_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("consumed_at", "text")
    .execute();
  await db.schema.createIndex("otp_codes_parent_idx").on("otp_codes").columns(["parent_id", "created_at"]).execute();

  await db.schema
    .createTable("signin_tokens")
    .addColumn("id", "text", (c) => c.primaryKey()) // sha-256 of the token
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("hits", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("rate_limits_pk", ["key", "window_start"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["rate_limits", "signin_tokens", "otp_codes", "used_links", "mail_outbox"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
