import type { Generated } from "kysely";

// ---- apps and categories (migration 2026-11-23T02-apps); part of `Database` in schema.ts ----

/** A kid's star rating of an app (sent by the kids app). */
export interface KidRatingsTable {
  id: string;
  profile_id: string;
  package_name: string;
  /** 1..5 */
  rating: number;
  review: string | null;
  created_at: string;
}

/** A parent's rating of an app for one of their kids (spec 2 §3). Stars 0..5; expert ratings are not here. */
export interface ParentRatingsTable {
  id: string;
  parent_id: string;
  profile_id: string;
  package_name: string;
  is_educational: Generated<number>;
  is_positive: Generated<number>;
  is_suitable_content: Generated<number>;
  is_easy_to_understand: Generated<number>;
  /** 0/1 */
  is_recommend: Generated<number>;
  /** Never set by the interface (spec 2 §3). */
  is_easy_to_stop: number | null;
  review: string | null;
  created_at: string;
  updated_at: string;
}

export interface AppsDatabase {
  kid_ratings: KidRatingsTable;
  parent_ratings: ParentRatingsTable;
}
