/**
 * The store's filters (spec 2 §2 /play-store, §4, §9), shared by the catalogue queries and the page: plain values,
 * no I/O, safe in the browser bundle.
 */

/** Package name of our own on-device kids app: never listed in the store, never uninstalled, always allowed. */
export const KIDS_APP_PACKAGE = "com.kidsportal.kidsapp";

/** An app's name for people: the catalogue's title; our kids app by its name; anything else by its package name. */
export function appTitle(title: string | null | undefined, packageName: string): string {
  return title ?? (packageName === KIDS_APP_PACKAGE ? "Kids Portal app" : packageName);
}

export const AGE_RANGES = ["AGE_RANGE1", "AGE_RANGE2", "AGE_RANGE3", "AGE_RANGE_ALL"] as const;
export type AgeRange = (typeof AGE_RANGES)[number];
/** Apps made for the group: their youngest age (catalog_apps.min_age) falls in it. */
export const AGE_BOUNDS: Record<AgeRange, [number, number]> = {
  AGE_RANGE1: [0, 5],
  AGE_RANGE2: [6, 8],
  AGE_RANGE3: [9, 12],
  AGE_RANGE_ALL: [0, 12],
};
export const EXPERT_FILTERS = ["EXPERT_RECOMMENDATION", "PARENTAL_SUPERVISION", "16+", "NOT_RATED"] as const;
export type ExpertFilter = (typeof EXPERT_FILTERS)[number];

export type StoreFilter =
  | { kind: "none" }
  | { kind: "text"; text: string }
  | { kind: "age"; age: AgeRange }
  | { kind: "category"; category: string }
  | { kind: "expert"; rating: ExpertFilter };
