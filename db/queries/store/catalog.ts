import { sql } from "kysely";
import { appIconHref } from "../../../core/app-icon";
import { dbDialect, type DB } from "../../index";
import type { ExpertRating } from "../../schema";
import { AGE_BOUNDS, KIDS_APP_PACKAGE, type StoreFilter } from "../../../core/store";

export { AGE_BOUNDS, AGE_RANGES, EXPERT_FILTERS, type AgeRange, type ExpertFilter, type StoreFilter } from "../../../core/store";

/**
 * The store's catalogue read models (spec 2 §2 /play-store, §3 "Play store list item"). One filter at a time
 * (spec 2 §4: text, age, category and expert rating are mutually exclusive). Text search is ranked full-text
 * over title, developer and description (SQLite FTS5 / PostgreSQL tsvector, migration 2026-11-23T06-store):
 * every word must match, the last ones as prefixes, accents ignored.
 */

/** Results shown at once (the catalogue is curated; a search that needs more is too broad). */
export const STORE_PAGE = 60;
const MAX_TOKENS = 8;
/** The store's first sort key; the same expression as the indexes of migration 2026-11-23T16-store-order. */
const RECOMMENDED_FIRST = sql`case when c.expert_rating = 'EXPERT_RECOMMENDATION' then 0 else 1 end`;
/** Our own kids app is never offered in the store. */
const KIDS_APP = KIDS_APP_PACKAGE;

/** Words of a query, accent-folded and lower-cased: only letters and digits reach the full-text syntax. */
export function ftsTokens(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_TOKENS)
    .map((t) => t.slice(0, 40));
}

export interface StoreListItem {
  appId: string;
  title: string;
  icon: string;
  expertRating: ExpertRating;
  scoreText: string | null;
  kidsRating: number | null;
  overallRating: number | null;
  price: number;
  free: boolean;
  isAppInstalled: boolean;
  isSystemApp: boolean;
  genreId: string | null;
  minAge: number;
  developer: string | null;
}

/** The list item's columns of catalog_apps (alias c). */
const ROW = sql.raw(
  "c.package_name, c.title, c.icon, c.expert_rating, c.score_text, c.price, c.free, c.is_system_app, c.genre_id, c.min_age, c.developer",
);

/** The apps matching the text, best first (ranked in the database), with their list items' columns: one read. */
async function textMatches(db: DB, text: string, limit: number): Promise<Row[]> {
  const tokens = ftsTokens(text);
  if (tokens.length === 0) return [];
  if (dbDialect(db) === "postgres") {
    const query = tokens.map((t) => `${t}:*`).join(" & ");
    const rows = await sql<Row>`
      SELECT ${ROW} FROM catalog_apps c
      WHERE c.search_vector @@ to_tsquery('simple', kp_fold(${query})) AND c.package_name <> ${KIDS_APP}
      ORDER BY ts_rank(c.search_vector, to_tsquery('simple', kp_fold(${query}))) DESC, c.reviews DESC, c.title
      LIMIT ${limit}`.execute(db);
    return rows.rows;
  }
  const match = tokens.map((t) => `"${t}"*`).join(" ");
  const rows = await sql<Row>`
    SELECT ${ROW} FROM catalog_apps_fts f JOIN catalog_apps c ON c.package_name = f.package_name
    WHERE catalog_apps_fts MATCH ${match} AND f.package_name <> ${KIDS_APP}
    ORDER BY bm25(catalog_apps_fts, 0.0, 10.0, 4.0, 1.0), c.reviews DESC, c.title
    LIMIT ${limit}`.execute(db);
  return rows.rows;
}

/** How list items show icons: `iconBase` is CATALOG_ICON_BASE_URL as the caller has it (empty: drawn by us). */
export interface IconOptions {
  iconBase?: string;
}

/** The list items of the filter for this phone (installed flags from its profile applications). */
export async function searchCatalog(
  db: DB,
  deviceId: string,
  filter: StoreFilter,
  { iconBase = "", limit = STORE_PAGE }: IconOptions & { limit?: number } = {},
): Promise<StoreListItem[]> {
  if (filter.kind === "text") {
    const rows = await textMatches(db, filter.text, limit);
    // Titles that begin with what was typed come first ("duol" → Duolingo before "Learn to Read - Duolingo ABC"),
    // then the full-text rank (the order the rows came in; the sort is stable).
    const lead = ftsTokens(filter.text)[0] ?? "";
    const leads = (title: string) => ((ftsTokens(title)[0] ?? "").startsWith(lead) ? 0 : 1);
    const ranked = rows.map((r) => ({ r, first: leads(r.title) }));
    ranked.sort((a, b) => a.first - b.first);
    return decorate(
      db,
      deviceId,
      ranked.map((x) => x.r),
      iconBase,
    );
  }
  let q = db
    .selectFrom("catalog_apps as c")
    .select([
      "c.package_name",
      "c.title",
      "c.icon",
      "c.expert_rating",
      "c.score_text",
      "c.price",
      "c.free",
      "c.is_system_app",
      "c.genre_id",
      "c.min_age",
      "c.developer",
    ])
    .where("c.package_name", "<>", KIDS_APP);
  switch (filter.kind) {
    case "age": {
      const [lo, hi] = AGE_BOUNDS[filter.age];
      q = q.where("c.min_age", ">=", lo).where("c.min_age", "<=", hi);
      break;
    }
    case "category":
      q = q.where("c.genre_id", "=", filter.category);
      break;
    case "expert":
      q = filter.rating === "NOT_RATED" ? q.where("c.expert_rating", "is", null) : q.where("c.expert_rating", "=", filter.rating);
      break;
    case "none":
      break;
  }
  // Recommended first, then by reviews and title, read in the order of an index (migration 2026-11-23T16):
  // within one expert rating the first key is the same for every row, so it is left out there.
  if (filter.kind !== "expert") q = q.orderBy(RECOMMENDED_FIRST);
  q = q.orderBy("c.reviews", "desc").orderBy("c.title").limit(limit);
  return decorate(db, deviceId, await q.execute(), iconBase);
}

type Row = {
  package_name: string;
  title: string;
  icon: string | null;
  expert_rating: ExpertRating;
  score_text: string | null;
  price: number;
  free: number;
  is_system_app: number;
  genre_id: string | null;
  min_age: number;
  developer: string | null;
};

/** Ratings and the phone's installed flag for a page of apps (three small grouped reads). */
async function decorate(db: DB, deviceId: string, rows: Row[], iconBase: string): Promise<StoreListItem[]> {
  if (rows.length === 0) return [];
  const pkgs = rows.map((r) => r.package_name);
  const [kids, parents, onPhone] = await Promise.all([
    db
      .selectFrom("kid_ratings")
      .select((eb) => ["package_name", eb.fn.avg<number>("rating").as("avg"), eb.fn.countAll<number>().as("n")])
      .where("package_name", "in", pkgs)
      .groupBy("package_name")
      .execute(),
    db
      .selectFrom("parent_ratings")
      .select((eb) => [
        "package_name",
        sql<number>`avg((is_educational + is_positive + is_suitable_content + is_easy_to_understand) / 4.0)`.as("avg"),
        eb.fn.countAll<number>().as("n"),
      ])
      .where("package_name", "in", pkgs)
      .groupBy("package_name")
      .execute(),
    db
      .selectFrom("profile_apps")
      .select(["package_name", "is_installed"])
      .where("device_id", "=", deviceId)
      .where("package_name", "in", pkgs)
      .execute(),
  ]);
  const kidBy = new Map(kids.map((k) => [k.package_name, { avg: Number(k.avg), n: Number(k.n) }]));
  const parentBy = new Map(parents.map((p) => [p.package_name, { avg: Number(p.avg), n: Number(p.n) }]));
  const installed = new Set(onPhone.filter((a) => a.is_installed === 1).map((a) => a.package_name));
  const one = (v: number) => Math.round(v * 10) / 10;
  return rows.map((r) => {
    const k = kidBy.get(r.package_name);
    const p = parentBy.get(r.package_name);
    return {
      appId: r.package_name,
      title: r.title,
      icon: appIconHref(r.package_name, r.title, r.icon, iconBase),
      expertRating: r.expert_rating,
      scoreText: r.score_text,
      kidsRating: k ? one(k.avg) : null,
      overallRating: overallRating(k, p),
      price: Number(r.price),
      free: r.free === 1 || !(Number(r.price) > 0),
      isAppInstalled: installed.has(r.package_name),
      isSystemApp: r.is_system_app === 1,
      genreId: r.genre_id,
      minAge: Number(r.min_age),
      developer: r.developer,
    };
  });
}

/** Kids' stars and parents' average stars together, weighted by how many ratings each has (one decimal; none: null). */
export function overallRating(kids: { avg: number; n: number } | undefined, parents: { avg: number; n: number } | undefined) {
  const n = (kids?.n ?? 0) + (parents?.n ?? 0);
  return n ? Math.round((((kids?.avg ?? 0) * (kids?.n ?? 0) + (parents?.avg ?? 0) * (parents?.n ?? 0)) / n) * 10) / 10 : null;
}

/** The 56 store categories in the store's order (the category popup, three per row). */
export async function listStoreCategories(db: DB) {
  return db.selectFrom("store_categories").select(["id", "name"]).orderBy("sort").orderBy("id").execute();
}
