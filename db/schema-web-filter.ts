import type { Generated } from "kysely";

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

// ---- the per-kid policy (migration 2026-11-29T01-web-filter-settings) ----

export type YoutubeMode = "off" | "moderate" | "strict";

/** A kid's web filter: the phone's filter id (Private DNS `<filter_id>.<DNS_FILTER_DOMAIN>`) and switches. */
export interface WebFilterSettingsTable {
  profile_id: string;
  /** Random lower-case `[a-z0-9]{16,24}`, unique. */
  filter_id: string;
  /** Set when the phone was replaced or removed: the id is refused. */
  revoked_at: string | null;
  safe_search: Generated<number>;
  youtube_mode: Generated<YoutubeMode>;
  /** JSON array of hosts always allowed (with their subdomains). */
  allow_list: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** A category blocked for a kid: always (`schedule_id` null) or only inside a time rules' window (kid_schedules). */
export interface WebFilterBlockedCategoriesTable {
  profile_id: string;
  category_id: string;
  schedule_id: string | null;
  updated_at: string;
}

// ---- the visited sites (migration 2026-11-29T02-web-visits) ----

/**
 * A kid's lookups of one domain in one UTC hour (A, AAAA and HTTPS only), written in batches by the resolver's process.
 * `domain` is the name asked, lower case, without the final dot or a leading `www.`.
 */
export interface WebVisitsTable {
  profile_id: string;
  domain: string;
  /** `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  first_at: string;
  last_at: string;
  count: number;
  /** The latest lookup of the hour: 1 when blocked. */
  blocked: Generated<number>;
  /** Why it was blocked: `category:<id>` or `rule:<host>`; null when allowed. */
  reason: string | null;
}

export interface WebFilterDatabase {
  web_filter_categories: WebFilterCategoriesTable;
  web_filter_domains: WebFilterDomainsTable;
  web_filter_settings: WebFilterSettingsTable;
  web_filter_blocked_categories: WebFilterBlockedCategoriesTable;
  web_visits: WebVisitsTable;
}
