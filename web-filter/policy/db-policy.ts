import type { DB } from "../../db/index";
import { loadFilterPolicyRows } from "../../db/queries/web-filter/policy-rows";
import type { FilterPolicy } from "../resolver/policy";
import { decideLookup, type CategoryLookup } from "./decide";
import { kidFilter, type KidFilter } from "./kid-filter";

export interface DbFilterPolicy extends FilterPolicy {
  /** Reloads every kid's filter (start-up, or after many changes). */
  refresh(): Promise<void>;
  /** Reloads one kid's filter: after its settings, schedules, /browser-logs entries or filter id changed. */
  refreshKid(profileId: string): Promise<void>;
  /** Uses new category lists (after an import: loadDomainIndex again). */
  setIndex(index: CategoryLookup): void;
  /** The kid of a live filter id (from memory), for the visited sites; undefined when unknown or revoked. */
  profileOf(filterId: string): string | undefined;
}

/**
 * The resolver's policy from the database, answered from memory: every live filter id (not revoked) and its kid's
 * filter sit in a Map, so `knownFilter` and `decide` (asked on every lookup) never wait on the database. The caller
 * refreshes it when a kid's policy changes. Refreshes run one at a time, in the order asked, so a full reload that
 * started earlier never overwrites a kid's newer one.
 */
export async function createDbFilterPolicy(db: DB, index: CategoryLookup, options: { now?: () => Date } = {}): Promise<DbFilterPolicy> {
  const now = options.now ?? (() => new Date());
  let lists = index;
  let byFilter = new Map<string, KidFilter>();
  const filterOfKid = new Map<string, string>();
  let queue: Promise<void> = Promise.resolve();
  const serial = (work: () => Promise<void>) => (queue = queue.then(work, work));

  const put = (f: KidFilter) => {
    byFilter.set(f.filterId, f);
    filterOfKid.set(f.profileId, f.filterId);
  };
  const reloadAll = async () => {
    const rows = await loadFilterPolicyRows(db);
    byFilter = new Map();
    filterOfKid.clear();
    for (const row of rows) put(kidFilter(row));
  };
  const reloadKid = async (profileId: string) => {
    const rows = await loadFilterPolicyRows(db, profileId);
    const old = filterOfKid.get(profileId);
    if (old !== undefined) byFilter.delete(old);
    filterOfKid.delete(profileId);
    for (const row of rows) put(kidFilter(row));
  };

  await serial(reloadAll);
  return {
    knownFilter: (filterId) => byFilter.has(filterId),
    decide(filterId, qname) {
      const filter = byFilter.get(filterId);
      if (!filter) return { action: "allow" };
      return decideLookup(filter, lists, qname, now(), filter.timeZone);
    },
    profileOf: (filterId) => byFilter.get(filterId)?.profileId,
    refresh: () => serial(reloadAll),
    refreshKid: (profileId) => serial(() => reloadKid(profileId)),
    setIndex(next) {
      lists = next;
    },
  };
}
