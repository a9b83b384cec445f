/**
 * Focus rules (issue 11 item 2), plain functions the browser hooks in app/utils/dialog.ts use:
 * Tab stays inside a popup; after client-side navigation to a new page, focus goes to its heading.
 */

/** What a popup's Tab order holds (visible or not is left to the caller). */
export const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/**
 * Where Tab (or Shift+Tab) should go inside a popup whose controls are `items`, from `active` (null: the popup
 * itself or anything outside its controls). Null: let the browser move focus as usual.
 */
export function wrapFocus<T>(items: readonly T[], active: T | null, backwards: boolean): T | null {
  if (items.length === 0) return null;
  const i = active === null ? -1 : items.indexOf(active);
  if (i === -1) return backwards ? items[items.length - 1] : items[0];
  if (backwards && i === 0) return items[items.length - 1];
  if (!backwards && i === items.length - 1) return items[0];
  return null;
}

export interface Place {
  pathname: string;
  search: string;
}

const kidOf = (search: string) => {
  const q = new URLSearchParams(search);
  return q.get("profileId") ?? q.get("profile_id");
};

/** A navigation that shows another page (or another kid's page): not a popup, a tab, a filter or the first load. */
export function isNewPage(prev: Place | null, next: Place): boolean {
  if (!prev) return false;
  return prev.pathname !== next.pathname || kidOf(prev.search) !== kidOf(next.search);
}
