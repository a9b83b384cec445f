import type { Kysely } from "kysely";

// Frozen in time: no application imports. The open API's personal access tokens (issue 56 item 2).
//
// - api_tokens: one row per token a parent made on their profile. `token_hash` is the SHA-256 (hex) of the token,
//   which is shown once and never stored; `scope` 'read' | 'control'; `expires_at` required; `revoked_at` set =
//   refused; `last_used_at` touched at most once a minute.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("api_tokens_parent").on("api_tokens").columns(["parent_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_tokens").ifExists().execute();
}
