/**
 * The whole seed catalogue: the demo pool first (db/seed/catalog.ts; the demo family's apps are picked from
 * it), then the rest of the curated listings (issue 13 item 2: at least 300 apps in all 56 store categories).
 */
import { DEMO_CATALOG_APPS, type CatalogAppSeed } from "./catalog";
import { MORE_APPS } from "./catalog-apps";
import { MORE_APPS_2 } from "./catalog-apps-2";
import { MORE_GAMES } from "./catalog-games";

export { DEMO_CATALOG_APPS };

export const CATALOG_APPS: CatalogAppSeed[] = [...DEMO_CATALOG_APPS, ...MORE_APPS, ...MORE_APPS_2, ...MORE_GAMES];
