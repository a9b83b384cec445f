import type { Services } from "#device-service/services";
import type { PageCacheStore } from "~/utils/page-cache.server";

/**
 * What Remix's loaders and actions get as `context` (server.ts's getLoadContext): the process's services
 * (device-service/services.ts) and what the request carries. A type only: nothing imports this file.
 */
declare module "@remix-run/node" {
  interface AppLoadContext {
    services: Services;
    cspNonce: string;
    /** Set on a page-cache miss: entry.server hands it the rendered document (app/utils/page-cache.server.ts). */
    pageCacheStore?: PageCacheStore;
    /** Set on a page-cache miss: the page may be kept only until this time (time-driven explanations, issue 21). */
    pageCacheUntil?: (at: Date) => void;
    /** Reads already made for this GET request before Remix (perRequest keys: "parent", "kids"). */
    preloaded?: Record<string, unknown>;
    /** A document request's (not single-fetch data's): markup rendered but not shipped again in the data (app/utils/document-markup.ts). */
    documentMarkup?: Map<string, unknown>;
    /** Set by requireParent: this answer carries a family's data, so no cache may store it (Cache-Control: no-store). */
    guarded?: boolean;
  }
}
