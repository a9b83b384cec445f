import type { DB } from "../../db/index";
import { markListsChanged, upsertWebFilterCategories } from "../../db/queries/web-filter/categories";
import { deleteListedDomains, domainsOfSource, insertListedDomains } from "../../db/queries/web-filter/domains";
import { CURATED_CATEGORIES, CURATED_SOURCE, type CuratedCategory } from "./curated";
import { normaliseDomain } from "./domain-name";

/**
 * Makes the database hold the shipped category list (curated.ts): its categories (names, descriptions, order) and
 * exactly its domains under the source `curated`, adding what a release added and removing what it dropped.
 * Idempotent and cheap (the curated rows are a few hundred), so every process runs it at start-up after the
 * migrations (server/services.ts): every database, production or demo, has the list, and an upgrade brings the new
 * one without a migration per list change (a migration is frozen in time). Operators' imports are never touched.
 * Answers how many domains were added and removed.
 */
export async function syncCuratedLists(
  db: DB,
  categories: CuratedCategory[] = CURATED_CATEGORIES,
  now = new Date(),
): Promise<{ added: number; removed: number }> {
  const wanted = new Map(categories.map((c) => [c.id, new Set(c.domains.map((d) => checked(c.id, d)))]));
  await upsertWebFilterCategories(
    db,
    categories.map((c, sort) => ({ id: c.id, name: c.name, description: c.description, sort })),
    now.toISOString(),
  );
  const stored = await domainsOfSource(db, CURATED_SOURCE);
  let added = 0;
  let removed = 0;
  for (const c of categories) {
    const want = wanted.get(c.id)!;
    const have = new Set(stored.get(c.id) ?? []);
    const missing = [...want].filter((d) => !have.has(d));
    const plus = await insertListedDomains(
      db,
      missing.map((domain) => ({ domain, category_id: c.id, source: CURATED_SOURCE })),
    );
    const minus = await deleteListedDomains(
      db,
      c.id,
      CURATED_SOURCE,
      [...have].filter((d) => !want.has(d)),
    );
    if (plus || minus) await markListsChanged(db, c.id, now);
    added += plus;
    removed += minus;
  }
  // A category a release dropped keeps its row (policies may name it) but loses its curated domains.
  for (const [id, domains] of stored)
    if (!wanted.has(id)) {
      const dropped = await deleteListedDomains(db, id, CURATED_SOURCE, domains);
      if (dropped) await markListsChanged(db, id, now);
      removed += dropped;
    }
  return { added, removed };
}

function checked(category: string, domain: string): string {
  const n = normaliseDomain(domain);
  if (!("domain" in n) || n.domain !== domain) throw new Error(`curated list ${category}: ${domain} is not a normalised domain`);
  return domain;
}
