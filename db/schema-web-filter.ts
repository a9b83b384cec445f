// ---- the web filter's category lists (migration 2026-11-29T00-web-filter-lists); part of `Database` in schema.ts ----

/** A category parents can block (adult, gambling, social networks…): the curated list shipped with the product. */
export interface WebFilterCategoriesTable {
  /** Stable kebab-case id (`social-networks`): policies and imports name categories by it. */
  id: string;
  /** What parents read on the Web Filter page, and its one-line description. */
  name: string;
  description: string;
  /** The order on the page. */
  sort: number;
  created_at: string;
  updated_at: string;
}

/**
 * One listed domain of one category (a host's subdomains match it). `source` is where it came from: `curated` for the
 * shipped list, else the name an operator gave `npm run web-filter:import` (its `--replace` replaces one source).
 */
export interface WebFilterDomainsTable {
  domain: string;
  category_id: string;
  source: string;
}

export interface WebFilterDatabase {
  web_filter_categories: WebFilterCategoriesTable;
  web_filter_domains: WebFilterDomainsTable;
}
