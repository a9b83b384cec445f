import type { ScheduleTimes } from "../../core/schedule-windows";
import type { FilterPolicyRow } from "../../db/queries/web-filter/policy-rows";
import type { YoutubeMode } from "../../db/schema-web-filter";

/** One kid's filter in the shape a lookup is decided from (sets, not lists): built once per refresh. */
export interface KidFilter {
  profileId: string;
  filterId: string;
  timeZone: string;
  safeSearch: boolean;
  youtube: YoutubeMode;
  /** Hosts never blocked, with their subdomains. */
  allowHosts: ReadonlySet<string>;
  /** Hosts blocked with their subdomains (the /browser-logs entries a DNS filter can hold). */
  blockedHosts: ReadonlySet<string>;
  /** Blocked category id → its windows (null = always). */
  categories: ReadonlyMap<string, ScheduleTimes | null>;
}

/**
 * The host a /browser-logs blocked entry blocks by DNS: an entry of a whole host (`example.com`). An entry with a path
 * (`news.test/sport`) or a port blocks part of a site: DNS sees names only, so it stays with the kids app (blocking
 * the host would block the whole site); an address literal is not a name.
 */
export function dnsBlockedHost(entry: string): string | null {
  if (!entry || /[/:[\]]/.test(entry)) return null;
  return entry.toLowerCase().replace(/\.+$/, "") || null;
}

export function kidFilter(row: FilterPolicyRow): KidFilter {
  return {
    profileId: row.profileId,
    filterId: row.filterId,
    timeZone: row.timeZone,
    safeSearch: row.safeSearch,
    youtube: row.youtube,
    allowHosts: new Set(row.allowList.map((h) => h.toLowerCase())),
    blockedHosts: new Set(row.blockedUrls.map(dnsBlockedHost).filter((h): h is string => h !== null)),
    categories: new Map(row.categories.map((c) => [c.categoryId, c.schedule])),
  };
}
