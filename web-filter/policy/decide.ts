import { isInside } from "../../core/schedule-windows";
import type { Decision } from "../resolver/policy";
import { suffixes } from "../resolver/policy";
import type { KidFilter } from "./kid-filter";
import { GOOGLE_SAFE, GOOGLE_SEARCH_HOST, SAFE_SEARCH_REWRITES, YOUTUBE_HOSTS, YOUTUBE_RESTRICT } from "./safe-search-hosts";

/** What the lists answer for a name: the categories it (or a parent domain) is listed in. */
export interface CategoryLookup {
  lookupCategories(name: string): readonly string[];
}

const YOUTUBE = new Set(YOUTUBE_HOSTS);

function rewriteOf(filter: KidFilter, qname: string): string | null {
  if (filter.youtube !== "off" && YOUTUBE.has(qname)) return YOUTUBE_RESTRICT[filter.youtube];
  if (!filter.safeSearch) return null;
  if (GOOGLE_SEARCH_HOST.test(qname)) return GOOGLE_SAFE;
  return SAFE_SEARCH_REWRITES.get(qname) ?? null;
}

/**
 * One lookup of one kid (issue 54 item 2), pure. `qname` is lower case without the final dot (as the resolver asks).
 *
 * 1. The allow list: a listed host (and its subdomains) is never blocked.
 * 2. The /browser-logs blocked entries: a host blocks its subdomains (`rule:<host>`).
 * 3. The blocked categories, always or only inside their schedule's window in the family's zone (`category:<id>`).
 * 4. SafeSearch and YouTube Restricted Mode: the providers' CNAME rewrites (an allowed host is rewritten too: the
 *    allow list unblocks, it does not turn SafeSearch off).
 *
 * Blocks come before the rewrites: a kid whose video streaming is blocked gets no YouTube, restricted or not.
 */
export function decideLookup(filter: KidFilter, index: CategoryLookup, qname: string, now: Date, timeZone: string): Decision {
  const names = suffixes(qname);
  const allowed = names.some((n) => filter.allowHosts.has(n));
  if (!allowed) {
    const rule = names.find((n) => filter.blockedHosts.has(n));
    if (rule) return { action: "block", reason: `rule:${rule}` };
    if (filter.categories.size) {
      for (const id of index.lookupCategories(qname)) {
        if (!filter.categories.has(id)) continue;
        const schedule = filter.categories.get(id);
        if (!schedule || isInside(schedule, now, timeZone)) return { action: "block", reason: `category:${id}` };
      }
    }
  }
  const cname = rewriteOf(filter, qname);
  return cname ? { action: "rewrite", cname } : { action: "allow" };
}
