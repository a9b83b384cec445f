import { sql } from "kysely";
import { type DB } from "../index";
import { STORE_CATEGORIES, type CatalogAppSeed } from "./catalog";
import { CATALOG_APPS } from "./catalog-all";
import { insertChunked } from "./family";

export async function seedCatalog(db: DB, extra: CatalogAppSeed[] = []): Promise<void> {
  const existing = await db
    .selectFrom("store_categories")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  if (Number(existing.n) === 0) {
    await insertChunked(
      db,
      "store_categories",
      STORE_CATEGORIES.map((c, i) => ({ id: c.id, name: c.name, sort: i })),
    );
  }
  const have = new Set((await db.selectFrom("catalog_apps").select("package_name").execute()).map((r) => r.package_name));
  const rows = [...CATALOG_APPS, ...extra]
    .filter((a) => !have.has(a.package_name))
    .map((a) => ({
      package_name: a.package_name,
      title: a.title,
      icon: null,
      header_image: null,
      price: a.price,
      free: a.price > 0 ? 0 : 1,
      score_text: a.score_text,
      reviews: a.reviews,
      content_rating: a.content_rating,
      genre: a.genre,
      genre_id: a.genre_id,
      developer: a.developer,
      developer_id: a.developer_id,
      android_version_text: a.android_version_text,
      offers_iap: a.offers_iap ? 1 : 0,
      ad_supported: a.ad_supported ? 1 : 0,
      screenshots: "[]",
      description_html: a.description_html,
      recent_changes: a.recent_changes,
      updated: a.updated,
      privacy_policy: a.privacy_policy,
      url: a.url,
      expert_rating: a.expert_rating,
      expert_rating_comment: a.expert_rating_comment,
      is_system_app: a.is_system_app ? 1 : 0,
      min_age: a.min_age,
    }));
  await insertChunked(db, "catalog_apps", rows, 200);
}
