import type { Env } from "#core/env.server";
import type { Logger } from "#core/log";
import type { DB } from "#db/index";
import type { Bus } from "#device-service/bus";
import type { DeviceCaller } from "#device-service/caller";
import type { ParentIdentity } from "#device-service/context";
import type { JobQueue } from "#core/job-queues";
import type { WebFilterService } from "#web-filter/service";
import type { PageCacheStore } from "~/utils/page-cache.server";

/**
 * What the web layer uses of its process's services (server/services.ts makes them, server/web.ts hands them over):
 * declared here, so app/ depends on the rooms below it and not on the composition root.
 */
export interface AppServices {
  env: Env;
  db: DB;
  bus: Bus;
  log: Logger;
  /** The device service as the given parent: authorisation lives in its procedures. */
  device: (parent: ParentIdentity | null) => DeviceCaller;
  /** The job queues (webhook test events); absent in bare test contexts (the minute's sweep sends what they store). */
  jobs?: JobQueue;
  /** The Home Assistant bridge (MQTT_URL set, connected): told when a family changes its settings. */
  homeAssistant?: { resync(): Promise<void> };
  /** The per-kid DNS filter (docs/web-filter.md); absent when it is switched off. */
  webFilter?: WebFilterService;
}

/**
 * What Remix's loaders and actions get as `context` (server/web.ts's getLoadContext): the process's services and
 * what the request carries.
 */
declare module "@remix-run/node" {
  interface AppLoadContext {
    services: AppServices;
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
