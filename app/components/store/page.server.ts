import { KIDS_APP_PACKAGE } from "#core/store";
import { listStoreCategories, searchCatalog, type IconOptions } from "#db/queries/store/catalog";
import { hasInstallsInProgress, listStoreInstalled } from "#db/queries/store/installed";
import type { DB } from "#db/index";
import { changedByLabel } from "~/rules/delegation";
import { parseStoreFilter, resultLabel, resultsPaging, resultsShown, FILTER_PARAMS, STORE_RESULTS_PAGE } from "~/rules/store";
import type { StoreItem } from "./StoreList";

/** Seconds between self-refreshes of a page without JavaScript while an install is on its way. */
export const INSTALLING_REFRESH_SECONDS = 3;
export const MODALS = ["age", "category", "expert", "install", "failure"] as const;
export type StoreModal = (typeof MODALS)[number];

/** Everything /play-store shows for one phone (spec 2 §2): the tab's list, the filter, the popups' data; `viewerId` reads "changed by you". */
export async function storePage(
  db: DB,
  url: URL,
  device: { id: string; serial_number: string; brand: string | null; model: string | null },
  kid: { id: string; name: string },
  viewerId: string,
  icons: IconOptions,
) {
  const q = (k: string) => url.searchParams.get(k);
  const filter = parseStoreFilter(url.searchParams);
  const tab = q("tab") === "installed" || (q("tab") !== "search" && filter.kind === "none") ? ("installed" as const) : ("search" as const);
  const modalParam = q("modal");
  const shown = resultsShown(url.searchParams);
  const modal = (MODALS as readonly string[]).includes(modalParam ?? "") ? (modalParam as StoreModal) : null;
  // One wait for every read: the search needs nothing the others return. The categories are read only when
  // something shows them (the category popup, a category's label).
  const [rows, categories, installing, found] = await Promise.all([
    listStoreInstalled(db, device.id, icons),
    modal === "category" || filter.kind === "category" ? listStoreCategories(db) : [],
    hasInstallsInProgress(db, device.id),
    // One row more than is shown tells whether Show More has anything to add.
    tab === "search" ? searchCatalog(db, device.id, filter, { ...icons, limit: shown + 1 }) : null,
  ]);
  const installed = rows.map(({ actor, ...i }) => ({ ...i, changedBy: changedByLabel(actor, viewerId) }));
  const byApp = new Map(installed.map((i) => [i.appId, i]));
  let items: StoreItem[] = installed;
  const paging = resultsPaging(shown, (found?.length ?? 0) > shown);
  if (found) {
    // Search results carry the phone's install state (installing, failed and why, its limit).
    items = found.slice(0, shown).map((a) => {
      const i = byApp.get(a.appId);
      return i
        ? {
            ...a,
            installState: i.installState,
            failureReason: i.failureReason,
            enableDailyLimit: i.enableDailyLimit,
            dailyLimitTime: i.dailyLimitTime,
            retry: i.retry,
            changedBy: i.changedBy,
          }
        : a;
    });
  }
  const categoryName = filter.kind === "category" ? (categories.find((c) => c.id === filter.category)?.name ?? filter.category) : null;
  const appId = q("appId");
  const filters = Object.fromEntries(FILTER_PARAMS.filter((k) => q(k)).map((k) => [k, q(k)!]));
  return {
    kid: { id: kid.id, name: kid.name },
    phone: { serialNumber: device.serial_number, brand: device.brand, model: device.model },
    tab,
    filter,
    filters,
    label: resultLabel(filter, categoryName),
    items,
    /** Search results only: where Show More and Show Less lead, and the first row Show More added (its anchor). */
    paging: found ? { ...paging, shown, firstNew: shown > STORE_RESULTS_PAGE ? shown - STORE_RESULTS_PAGE : null } : null,
    categories: modal === "category" ? categories : [],
    modal,
    appId,
    kidsAppPackage: KIDS_APP_PACKAGE,
    installedApp: appId ? (byApp.get(appId) ?? null) : null,
    noJsRefreshSeconds: installing ? INSTALLING_REFRESH_SECONDS : 0,
  };
}
