import type { Kysely } from "kysely";

// Frozen in time: no application imports. The web filter's visited sites (issue 54 item 5).
//
// - web_visits: the kid's DNS lookups (A, AAAA, HTTPS) coalesced per domain and UTC hour: one row per (kid, domain,
//   hour), `hour` as `YYYY-MM-DDTHH`. first_at/last_at (ISO), count, and the last lookup's decision: blocked (0/1)
//   and why (`category:<id>`, `rule:<host>`, or null). Rows older than WEB_LOG_DAYS and the oldest past a kid's cap are
//   removed by housekeeping. The filter id is the kid's (every phone of the kid shares it), so the rows are the kid's.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("web_visits")
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("hour", "text", (c) => c.notNull())
    .addColumn("first_at", "text", (c) => c.notNull())
    .addColumn("last_at", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("blocked", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("reason", "text")
    .addPrimaryKeyConstraint("web_visits_pk", ["profile_id", "hour", "domain"])
    .execute();
  // Retention deletes by hour across every kid.
  await db.schema.createIndex("web_visits_hour").on("web_visits").column("hour").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("web_visits").ifExists().execute();
}
