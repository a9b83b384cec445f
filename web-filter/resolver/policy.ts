/** What the filter does with one lookup of one phone. */
export type Decision = { action: "allow" } | { action: "block"; reason: string } | { action: "rewrite"; cname: string };

type MaybePromise<T> = T | Promise<T>;

/**
 * The per-kid policy the resolver asks (issue 54 item 2 builds the real one from the phone's policy). `knownFilter`
 * says whether a filter id names a phone whose filter is on: an unknown or revoked id is refused, so the resolver is
 * never an open resolver. `decide` is asked once per lookup, with the name in lower case without the final dot.
 */
export interface FilterPolicy {
  knownFilter(filterId: string): MaybePromise<boolean>;
  decide(filterId: string, qname: string, qtype: string): MaybePromise<Decision>;
}

export interface MemoryFilter {
  /** Hosts blocked with their subdomains (as /browser-logs blocks today), each with the reason given. */
  blocked?: Record<string, string>;
  /** Hosts answered by a CNAME to another name (SafeSearch style), exact names only. */
  rewrites?: Record<string, string>;
}

/** The names a lookup of `qname` matches: itself and every parent domain (a.b.c → a.b.c, b.c, c). */
export function suffixes(qname: string): string[] {
  const labels = qname.split(".");
  return labels.map((_, i) => labels.slice(i).join("."));
}

/** A policy held in memory: tests, benches and local debugging. */
export function memoryPolicy(filters: Record<string, MemoryFilter>): FilterPolicy {
  // Maps, not the objects: a lookup of "constructor" must not find Object's.
  const byId = new Map(
    Object.entries(filters).map(([id, f]) => [
      id,
      { blocked: new Map(Object.entries(f.blocked ?? {})), rewrites: new Map(Object.entries(f.rewrites ?? {})) },
    ]),
  );
  return {
    knownFilter: (filterId) => byId.has(filterId),
    decide(filterId, qname) {
      const filter = byId.get(filterId);
      if (!filter) return { action: "allow" };
      const cname = filter.rewrites.get(qname);
      if (cname) return { action: "rewrite", cname };
      for (const name of suffixes(qname)) {
        const reason = filter.blocked.get(name);
        if (reason) return { action: "block", reason };
      }
      return { action: "allow" };
    },
  };
}
