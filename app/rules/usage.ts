/** The most-used apps and categories lists: how an app is labelled and how far each list is shown. */

export const LIST_PAGE = 3;

export function isManualInstall(playStoreCategory: string | null | undefined): boolean {
  return playStoreCategory === "Others";
}

// ---------------------------------------------------------------- list paging

/** The visible count from the URL: 3 at first, grows by 3; anything odd falls back to a valid count. */
export function visibleCount(raw: string | null | undefined, page = LIST_PAGE, max = 300): number {
  const n = Number.parseInt(String(raw ?? ""), 10);
  if (!Number.isFinite(n) || n <= page) return page;
  return Math.min(max, Math.ceil(n / page) * page);
}

export function listPaging(count: number, total: number, page = LIST_PAGE) {
  return {
    showMore: count < total ? count + page : null,
    showLess: count > page ? page : null,
  };
}
