import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports.
//
// Issue 13 (a fast store at 30,000 apps): the store's lists without text (an age group, a category, an expert
// rating, all apps) are shown recommended apps first, then by reviews and title, 60 at a time. Without an index in
// that order both databases sorted every matching row for each page (7 ms on SQLite, 17–24 ms on PostgreSQL at
// 30,330 apps for an age group, measured); these let them read the first 60 in order and stop.
// The expression is the query's own (db/queries/store/catalog.ts RECOMMENDED_FIRST), so the planners match it.
// catalog_apps_genre_idx (genre_id) is a prefix of the category index and goes.

const RECOMMENDED_FIRST = "(CASE WHEN expert_rating = 'EXPERT_RECOMMENDATION' THEN 0 ELSE 1 END)";

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`CREATE INDEX catalog_apps_store_order_idx ON catalog_apps (${RECOMMENDED_FIRST}, reviews DESC, title)`).execute(db);
  await sql
    .raw(`CREATE INDEX catalog_apps_genre_order_idx ON catalog_apps (genre_id, ${RECOMMENDED_FIRST}, reviews DESC, title)`)
    .execute(db);
  await sql.raw(`CREATE INDEX catalog_apps_expert_order_idx ON catalog_apps (expert_rating, reviews DESC, title)`).execute(db);
  await sql`DROP INDEX catalog_apps_genre_idx`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("catalog_apps_genre_idx").on("catalog_apps").column("genre_id").execute();
  for (const name of ["catalog_apps_expert_order_idx", "catalog_apps_genre_order_idx", "catalog_apps_store_order_idx"])
    await sql.raw(`DROP INDEX ${name}`).execute(db);
}
