import type { DB } from "../../db/index";
import { listWebFilterCategories } from "../../db/queries/web-filter/categories";
import { pageOfListedDomains } from "../../db/queries/web-filter/domains";
import { DomainIndex } from "./domain-index";

/** Rows per page while loading: a few MB at a time, whatever the lists' size. */
const PAGE = 20_000;

/**
 * Builds the in-memory lists (domain-index.ts) from the database, page by page in key order, so 1,000,000 listed
 * domains never sit in memory as rows. Call again to pick up an import (the new index replaces the old one whole).
 */
export async function loadDomainIndex(db: DB): Promise<DomainIndex> {
  const categories = await listWebFilterCategories(db);
  const index = new DomainIndex(categories.map((c) => c.id));
  let after: { domain: string; category_id: string } | null = null;
  for (;;) {
    const rows = await pageOfListedDomains(db, after, PAGE);
    for (const r of rows) index.add(r.domain, r.category_id);
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1];
  }
  index.compact();
  return index;
}
