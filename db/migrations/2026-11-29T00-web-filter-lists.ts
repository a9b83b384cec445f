import { sql, type Kysely } from "kysely";

// Frozen in time: no application imports. The web filter's category lists (issue 54 item 3).
//
// - web_filter_categories: the categories parents block (adult, gambling, social networks…), stable kebab-case ids.
//   The curated list (categories and their domains, web-filter/lists/curated.ts) is written by the processes at
//   start-up, idempotently, not here: it changes with releases, and a migration is frozen.
// - web_filter_domains: one row per listed domain and category (a host's subdomains match it), with its source
//   (`curated`, or the name an operator gave `npm run web-filter:import`). The primary key (domain, category_id)
//   answers a lookup by the name's suffixes (`WHERE domain IN (…)`) and dedupes; (category_id, source) serves the
//   counts per category and an import's `--replace`. SQLite stores the rows in the key's own b-tree (WITHOUT ROWID):
//   no second copy of every domain, which keeps 1,000,000 domains well under 150 MB on disk.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("web_filter_categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("sort", "integer", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createTable("web_filter_domains")
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("category_id", "text", (c) => c.notNull().references("web_filter_categories.id").onDelete("cascade"))
    .addColumn("source", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("web_filter_domains_pk", ["domain", "category_id"])
    .$call((b) => (isPostgres(db) ? b : b.modifyEnd(sql`WITHOUT ROWID`)))
    .execute();
  await db.schema.createIndex("web_filter_domains_source_idx").on("web_filter_domains").columns(["category_id", "source"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("web_filter_domains").ifExists().execute();
  await db.schema.dropTable("web_filter_categories").ifExists().execute();
}
