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

/**
 * Writes the categories (new ones added, names, descriptions and order updated); never removes one. A category's
 * `updated_at` moves only when its row or its listed domains changed (`markListsChanged`): it is what `listsVersion`
 * reads, so a start-up that changes nothing makes no process reload its lists.
 */
export async function upsertWebFilterCategories(db: DB, categories: (WebFilterCategory & { sort: number })[], now: string): Promise<void> {
  if (!categories.length) return;
  await db
    .insertInto("web_filter_categories")
    .values(categories.map((c) => ({ ...c, created_at: now, updated_at: now })))
    .onConflict((oc) =>
      oc
        .column("id")
        .doUpdateSet((eb) => ({
          name: eb.ref("excluded.name"),
          description: eb.ref("excluded.description"),
          sort: eb.ref("excluded.sort"),
          updated_at: eb.ref("excluded.updated_at"),
        }))
        .where((eb) =>
          eb.or([
            eb("web_filter_categories.name", "!=", eb.ref("excluded.name")),
            eb("web_filter_categories.description", "!=", eb.ref("excluded.description")),
            eb("web_filter_categories.sort", "!=", eb.ref("excluded.sort")),
          ]),
        ),
    )
    .execute();
}

/**
 * Marks a category's lists changed (an import, the shipped list's sync): the processes serving the filter see a new
 * `listsVersion` and load the lists again (server/web-filter.ts).
 */
export async function markListsChanged(db: DB, categoryId: string, now: Date = new Date()): Promise<void> {
  await db.updateTable("web_filter_categories").set({ updated_at: now.toISOString() }).where("id", "=", categoryId).execute();
}

/**
 * The lists' version: every category with the time its row or domains last changed, as one string. Any import or
 * change of the shipped list changes it (whatever the clocks of the machines that wrote it: it is compared for
 * equality, never for order). A few rows: cheap to read every minute.
 */
export async function listsVersion(db: DB): Promise<string> {
  const rows = await db.selectFrom("web_filter_categories").select(["id", "updated_at"]).orderBy("id").execute();
  return rows.map((r) => `${r.id}@${r.updated_at}`).join(",");
}
