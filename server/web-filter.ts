import { randomUUID } from "node:crypto";
import type { Logger } from "../core/log";
import { filterHostname } from "../core/private-dns";
import type { DB } from "../db/index";
import { listsVersion } from "../db/queries/web-filter/categories";
import { ensureFilterIdsForAllKids } from "../db/queries/web-filter/settings";
import { upsertVisits } from "../db/queries/web-filter/visits";
import type { Bus } from "../device-service/bus";
import { createResolver } from "../web-filter/create-resolver";
import { resolverCertificate } from "../web-filter/dev-cert";
import { loadDomainIndex } from "../web-filter/lists/load";
import { createDbFilterPolicy, type DbFilterPolicy } from "../web-filter/policy/db-policy";
import type { Resolver } from "../web-filter/resolver/resolver";
import { startDotServer, type RunningServer } from "../web-filter/servers/dot";
import type { WebFilterService } from "../web-filter/service";
import { webFilterSettings, type WebFilterSettings } from "../web-filter/settings";
import { createVisitRecorder, type VisitRecorder } from "../web-filter/visits/recorder";

/** The web filter of one process: the resolver over the database policy, kept fresh through the bus. */
export interface WebFilterRuntime {
  settings: WebFilterSettings;
  policy: DbFilterPolicy;
  resolver: Resolver;
  /** The lookups, batched into the visited sites (web_visits); flushed by `close`. */
  visits: VisitRecorder;
  /** What the pages use (AppServices.webFilter). */
  service: WebFilterService;
  /**
   * Loads the lists again when their version changed since they were loaded (what the timer of
   * DNS_LISTS_CHECK_SECONDS calls); answers whether it did. One at a time: a call during a reload waits for it.
   */
  reloadListsIfChanged(): Promise<boolean>;
  /** Starts DNS-over-TLS on DNS_DOT_PORT (or `port`); closed by `close`. */
  startDot(port?: number): Promise<RunningServer>;
  close(): Promise<void>;
}

/**
 * The web filter of a process that serves it (the web process, under `npm start` and in deployments, and
 * `npm run resolver`), or undefined when WEB_FILTER=false. Every kid gets a filter id first (idempotent); the lists
 * and every kid's policy are then held in memory, and a `web-filter.kid` message on the bus reloads one kid in every
 * process (a lost Redis subscription reloads them all, as what was published meanwhile never arrives).
 */
export async function createWebFilter(o: {
  db: DB;
  bus: Bus;
  log: Logger;
  publicUrl: string;
  env?: Record<string, string | undefined>;
}): Promise<WebFilterRuntime | undefined> {
  const settings = webFilterSettings(o.env ?? process.env);
  if (!settings.WEB_FILTER) return undefined;
  const made = await ensureFilterIdsForAllKids(o.db);
  if (made) o.log("info", "web filter: filter ids made", { kids: made });
  // The version is read before the lists: an import that ends while they load is seen at the next check.
  let loadedVersion = await listsVersion(o.db);
  const index = await loadDomainIndex(o.db);
  const policy = await createDbFilterPolicy(o.db, index);
  // The visited sites: the lookups are coalesced in memory and written every few seconds, never logged.
  const visits = createVisitRecorder({
    profileOf: (filterId) => policy.profileOf(filterId),
    write: (buckets) => upsertVisits(o.db, buckets),
    log: o.log,
  });
  const resolver = createResolver(settings, policy, { log: o.log, onLookup: (lookup) => visits.record(lookup) });
  const self = randomUUID();
  const reload = (work: Promise<void>, what: Record<string, unknown>) =>
    work.catch((err: unknown) => o.log("warn", "web filter: policy not reloaded", { ...what, error: String(err) }));
  const unsubscribe = o.bus.subscribe((msg) => {
    if (msg.type === "web-filter.kid" && msg.from !== self) void reload(policy.refreshKid(msg.profileId), { profileId: msg.profileId });
    else if (msg.type === "bus.resubscribed") void reload(policy.refresh(), {});
  });
  let counts = new Map(Object.entries(index.countsByCategory()));
  const dots: RunningServer[] = [];

  // After `npm run web-filter:import` (another process, maybe without the bus): the lists' version is read every
  // DNS_LISTS_CHECK_SECONDS, and a new one loads the lists again, replacing the policy's index whole
  // (docs/web-filter.md says why a poll and not a bus message).
  let reloading: Promise<boolean> | null = null;
  const reloadLists = async (): Promise<boolean> => {
    const version = await listsVersion(o.db);
    if (version === loadedVersion) return false;
    const started = Date.now();
    const next = await loadDomainIndex(o.db);
    policy.setIndex(next);
    counts = new Map(Object.entries(next.countsByCategory()));
    loadedVersion = version;
    o.log("info", "web filter: lists reloaded", { domains: next.size, ms: Date.now() - started });
    return true;
  };
  const reloadListsIfChanged = () =>
    (reloading ??= reloadLists().finally(() => {
      reloading = null;
    }));
  const listsTimer =
    settings.DNS_LISTS_CHECK_SECONDS > 0
      ? setInterval(
          () =>
            void reloadListsIfChanged().catch((err: unknown) =>
              o.log("warn", "web filter: lists not reloaded", { error: err instanceof Error ? err.message : String(err) }),
            ),
          settings.DNS_LISTS_CHECK_SECONDS * 1000,
        )
      : undefined;
  listsTimer?.unref();

  const service: WebFilterService = {
    hostname: (filterId) => filterHostname(filterId, settings.DNS_FILTER_DOMAIN),
    dohUrl: (filterId) => `${o.publicUrl}/dns-query/${filterId}`,
    async kidChanged(profileId) {
      // This process at once (the parent's next lookup sees it), the others through the bus.
      await policy.refreshKid(profileId);
      await o.bus.publish({ type: "web-filter.kid", profileId, from: self });
    },
    countsByCategory: () => counts,
  };

  return {
    settings,
    policy,
    resolver,
    visits,
    service,
    reloadListsIfChanged,
    async startDot(port = settings.DNS_DOT_PORT) {
      const dot = await startDotServer({
        resolver,
        tls: resolverCertificate(settings),
        filterDomain: settings.DNS_FILTER_DOMAIN,
        port,
        log: o.log,
      });
      dots.push(dot);
      return dot;
    },
    async close() {
      clearInterval(listsTimer);
      unsubscribe();
      await reloading?.catch(() => false);
      await Promise.all(dots.map((d) => d.close()));
      // After the servers: the last lookups are in the buffer.
      await visits.close();
    },
  };
}
