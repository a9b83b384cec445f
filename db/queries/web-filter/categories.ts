import { sql } from "kysely";
import type { DB } from "../../index";

/** The web filter's categories and their listed domains per category (the Web Filter page's "domain counts"). */

export interface WebFilterCategory {
  id: string;
  name: string;
  description: string;
}

export async function listWebFilterCategories(db: DB): Promise<WebFilterCategory[]> {
  return db.selectFrom("web_filter_categories").select(["id", "name", "description"]).orderBy("sort").orderBy("id").execute();
}

/** Listed domains per category id; a category with none answers 0. Counts the (category, source) index only. */
export async function domainCountsByCategory(db: DB): Promise<Record<string, number>> {
  const [categories, counts] = await Promise.all([
    db.selectFrom("web_filter_categories").select("id").execute(),
    db
      .selectFrom("web_filter_domains")
      .select(["category_id", sql<number>`count(*)`.as("n")])
      .groupBy("category_id")
      .execute(),
  ]);
  const out: Record<string, number> = Object.fromEntries(categories.map((c) => [c.id, 0]));
  for (const c of counts) out[c.category_id] = Number(c.n);
  return out;
}

/** Writes the categories (new ones added, names, descriptions and order updated); never removes one. */
export async function upsertWebFilterCategories(db: DB, categories: (WebFilterCategory & { sort: number })[], now: string): Promise<void> {
  if (!categories.length) return;
  await db
    .insertInto("web_filter_categories")
    .values(categories.map((c) => ({ ...c, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc.column("id").doUpdateSet((eb) => ({
        name: eb.ref("excluded.name"),
        description: eb.ref("excluded.description"),
        sort: eb.ref("excluded.sort"),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
}
