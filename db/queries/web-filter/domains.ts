import type { DB } from "../../index";

/** The web filter's listed domains: one row per domain and category, with the source it came from. */

export interface ListedDomain {
  domain: string;
  category_id: string;
  source: string;
}

/** Rows per INSERT: 3 parameters each, far below SQLite's and PostgreSQL's limits. */
const ROWS_PER_STATEMENT = 1_000;

/**
 * The categories listing `name` or one of its parent domains, by the name's suffixes (whole labels:
 * `a.b.example.com` looks up `a.b.example.com`, `b.example.com`, `example.com`, `com`) on the primary key.
 * `name` is lower case without a trailing dot. For the resolver's hot path, web-filter/lists/domain-index.ts.
 */
export async function categoriesOfName(db: DB, name: string): Promise<string[]> {
  const suffixes = name.split(".").map((_, i, labels) => labels.slice(i).join("."));
  const rows = await db
    .selectFrom("web_filter_domains")
    .select("category_id")
    .distinct()
    .where("domain", "in", suffixes)
    .orderBy("category_id")
    .execute();
  return rows.map((r) => r.category_id);
}

/**
 * Lists domains in one transaction; a domain already listed in its category (from any source) stays as it is.
 * Answers how many rows were added.
 */
export async function insertListedDomains(db: DB, rows: ListedDomain[]): Promise<number> {
  if (!rows.length) return 0;
  return db.transaction().execute(async (tx) => {
    let added = 0;
    for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
      const r = await tx
        .insertInto("web_filter_domains")
        .values(rows.slice(i, i + ROWS_PER_STATEMENT))
        .onConflict((oc) => oc.columns(["domain", "category_id"]).doNothing())
        .executeTakeFirst();
      added += Number(r.numInsertedOrUpdatedRows ?? 0);
    }
    return added;
  });
}

/** Removes a source's domains from a category (an import's `--replace`); answers how many. */
export async function deleteSourceDomains(db: DB, categoryId: string, source: string): Promise<number> {
  const r = await db.deleteFrom("web_filter_domains").where("category_id", "=", categoryId).where("source", "=", source).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Removes the given domains of a source from a category (the curated list's sync); answers how many. */
export async function deleteListedDomains(db: DB, categoryId: string, source: string, domains: string[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < domains.length; i += ROWS_PER_STATEMENT) {
    const r = await db
      .deleteFrom("web_filter_domains")
      .where("category_id", "=", categoryId)
      .where("source", "=", source)
      .where("domain", "in", domains.slice(i, i + ROWS_PER_STATEMENT))
      .executeTakeFirst();
    removed += Number(r.numDeletedRows);
  }
  return removed;
}

/** A source's domains in every category, as `category_id` → domains. */
export async function domainsOfSource(db: DB, source: string): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom("web_filter_domains")
    .select(["category_id", "domain"])
    .where("source", "=", source)
    .orderBy("domain")
    .execute();
  const out = new Map<string, string[]>();
  for (const r of rows) {
    const list = out.get(r.category_id);
    if (list) list.push(r.domain);
    else out.set(r.category_id, [r.domain]);
  }
  return out;
}

/**
 * One page of every listed (domain, category) in key order, after `after` (null: from the start): how the lists are
 * loaded into memory without holding 1,000,000 rows at once. Keyset paging on the primary key.
 */
export async function pageOfListedDomains(
  db: DB,
  after: { domain: string; category_id: string } | null,
  limit: number,
): Promise<{ domain: string; category_id: string }[]> {
  let q = db.selectFrom("web_filter_domains").select(["domain", "category_id"]).orderBy("domain").orderBy("category_id").limit(limit);
  if (after)
    q = q.where((eb) =>
      eb.or([eb("domain", ">", after.domain), eb.and([eb("domain", "=", after.domain), eb("category_id", ">", after.category_id)])]),
    );
  return q.execute();
}
