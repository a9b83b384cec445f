import { throttledLog, type Logger } from "../../core/log";
import type { VisitBucket } from "../../db/queries/web-filter/visits";
import type { LookupEvent } from "../resolver/resolver";

/** The lookup types that are a visit: an address (A, AAAA) or HTTPS's service record. PTR, TXT, SRV… are not. */
export const VISIT_TYPES: ReadonlySet<string> = new Set(["A", "AAAA", "HTTPS"]);
/** Distinct (kid, domain, hour) buckets held between two flushes; past it new ones are dropped and counted. */
export const VISIT_BUFFER_MAX = 20_000;
export const VISIT_FLUSH_MS = 5_000;

export interface VisitRecorder {
  /** The resolver's `onLookup`: synchronous, no I/O. */
  record(lookup: LookupEvent): void;
  /** Writes what is buffered now (one flush at a time; a later call waits for the running one, then writes). */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
  /** Buckets waiting, and lookups dropped since start because the buffer was full (or the write failed with it full). */
  stats(): { buffered: number; dropped: number };
}

/**
 * The domain a lookup counts for: lower case, no final dot, no leading `www.`; null for what is not a site (a
 * single label, a reverse lookup, a service name such as `_dns.resolver.arpa`).
 */
export function visitDomain(qname: string): string | null {
  let name = qname.toLowerCase().replace(/\.$/, "");
  if (name.startsWith("www.")) name = name.slice(4);
  if (!name.includes(".") || name.endsWith(".arpa") || name.split(".").some((l) => l.startsWith("_"))) return null;
  return name.length <= 253 ? name : null;
}

/**
 * Coalesces the resolver's lookups in memory per (kid, domain, UTC hour) and writes them every `flushMs` as one batch
 * of upserts (`write`), never one write per lookup. The buffer holds `maxBuckets` at most: a lookup of a bucket
 * already held only counts, a new one past the bound is dropped (and counted), so a flood cannot grow memory. A failed
 * write puts its buckets back while there is room. Nothing here logs a name: a log line has counts only.
 */
export function createVisitRecorder(o: {
  /** The kid of a filter id (the resolver's policy); undefined: not recorded. */
  profileOf: (filterId: string) => string | undefined;
  write: (buckets: VisitBucket[]) => Promise<unknown>;
  now?: () => number;
  flushMs?: number;
  maxBuckets?: number;
  log?: Logger;
}): VisitRecorder {
  const now = o.now ?? Date.now;
  const max = o.maxBuckets ?? VISIT_BUFFER_MAX;
  const warn = o.log && throttledLog(o.log, "web-filter-visits");
  let buffer = new Map<string, VisitBucket>();
  let dropped = 0;
  let droppedLogged = 0;
  let running: Promise<void> = Promise.resolve();

  const add = (into: Map<string, VisitBucket>, key: string, b: VisitBucket): boolean => {
    const had = into.get(key);
    if (!had) {
      if (into.size >= max) return false;
      into.set(key, { ...b });
      return true;
    }
    had.count += b.count;
    if (b.firstAt < had.firstAt) had.firstAt = b.firstAt;
    if (b.lastAt >= had.lastAt) {
      had.lastAt = b.lastAt;
      had.blocked = b.blocked;
      had.reason = b.reason;
    }
    return true;
  };
  const keyOf = (b: VisitBucket) => `${b.profileId}\u0000${b.hour}\u0000${b.domain}`;

  const writeOnce = async () => {
    if (dropped > droppedLogged) {
      warn?.("warn", "web filter: visited sites dropped, the buffer was full", { lookups: dropped - droppedLogged });
      droppedLogged = dropped;
    }
    if (!buffer.size) return;
    const batch = buffer;
    buffer = new Map();
    try {
      await o.write([...batch.values()]);
    } catch (err) {
      warn?.("warn", "web filter: visited sites not written, kept for the next flush", {
        buckets: batch.size,
        // The code only: a database's message may quote the row, and so a domain.
        error: (err as { code?: unknown }).code ?? (err as Error).name,
      });
      for (const [key, b] of batch) if (!add(buffer, key, b)) dropped += b.count;
    }
  };
  const flush = () => (running = running.then(writeOnce, writeOnce));

  const timer = setInterval(() => void flush(), o.flushMs ?? VISIT_FLUSH_MS);
  timer.unref();

  return {
    record(lookup) {
      if (!VISIT_TYPES.has(lookup.qtype)) return;
      const profileId = o.profileOf(lookup.filterId);
      if (profileId === undefined) return;
      const domain = visitDomain(lookup.qname);
      if (!domain) return;
      const at = new Date(now()).toISOString();
      const blocked = lookup.decision.action === "block";
      const b: VisitBucket = {
        profileId,
        domain,
        hour: at.slice(0, 13),
        firstAt: at,
        lastAt: at,
        count: 1,
        blocked,
        reason: lookup.decision.action === "block" ? lookup.decision.reason : null,
      };
      if (!add(buffer, keyOf(b), b)) dropped += 1;
    },
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ buffered: buffer.size, dropped }),
  };
}
