import type { Kysely } from "kysely";

// Frozen in time: no application imports.
//
// A parent's name or e-mail change moves the revision of the kids of every delegation they accepted (the actor-names
// trigger, 2026-11-27T01): it finds those delegations by `responded_by`, which had no index, so every rename read
// all of `delegations`. This index finds them directly.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("delegations_responded_by_idx").on("delegations").column("responded_by").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("delegations_responded_by_idx").ifExists().execute();
}
