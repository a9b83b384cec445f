import type { Answer, DecodedPacket } from "dns-packet";
import { AnswerCache } from "./cache";
import { aged, cacheTtl, type TtlLimits } from "./ttl";

export interface ForwarderOptions extends TtlLimits {
  maxEntries: number;
  now?: () => number;
}

/** An answer for the resolver to pass on: the records' TTLs already counted down by the time it was cached. */
export interface Forwarded {
  rcode: string;
  answers: Answer[];
  authorities: Answer[];
}

/** What asks the upstream resolvers (UpstreamClient; tests may pass their own). */
export interface Upstream {
  query(name: string, type: string): Promise<DecodedPacket>;
}

/**
 * Lookups that leave the filter: answered from the cache while their TTL lasts (negative answers too, RFC 2308),
 * else asked upstream once however many clients ask the same name and type at the same moment (coalescing).
 */
export class Forwarder {
  private readonly cache: AnswerCache;
  private readonly inFlight = new Map<string, Promise<Forwarded>>();
  private readonly now: () => number;

  constructor(
    private readonly upstream: Upstream,
    private readonly opts: ForwarderOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.cache = new AnswerCache(opts.maxEntries, this.now);
  }

  lookup(qname: string, qtype: string): Promise<Forwarded> {
    const key = `${qtype} ${qname}`;
    const cached = this.cache.get(key);
    if (cached) {
      const age = Math.floor((this.now() - cached.receivedAt) / 1000);
      return Promise.resolve({ rcode: cached.rcode, answers: aged(cached.answers, age), authorities: aged(cached.authorities, age) });
    }
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const asked = this.ask(key, qname, qtype).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, asked);
    return asked;
  }

  private async ask(key: string, qname: string, qtype: string): Promise<Forwarded> {
    const packet = await this.upstream.query(qname, qtype);
    const answer: Forwarded = {
      rcode: (packet as { rcode?: string }).rcode ?? "NOERROR",
      answers: (packet.answers ?? []).filter((a) => a.type !== "OPT"),
      authorities: (packet.authorities ?? []).filter((a) => a.type !== "OPT"),
    };
    this.cache.set(key, { ...answer, receivedAt: this.now(), ttlSeconds: cacheTtl(packet, this.opts) });
    return answer;
  }
}
