import type { Answer } from "dns-packet";
import { throttledLog, type Logger } from "../../core/log";
import type { Forwarded, Forwarder } from "./forwarder";
import { encodeError, encodeReply, parseQuery, RCODE, type ParsedQuery, type Rcode, type Reply } from "./message";
import type { Decision, FilterPolicy } from "./policy";
import type { RateLimiter } from "./rate-limit";
import { minTtl } from "./ttl";

export interface ResolverOptions {
  policy: FilterPolicy;
  forwarder: Forwarder;
  rateLimit: RateLimiter;
  /** The TTL of a blocked name's 0.0.0.0 / :: (seconds): short, so an unblock reaches the phone soon (decision 014). */
  blockedTtl: number;
  /** The TTL of a rewrite's CNAME (seconds). */
  rewriteTtl: number;
  log?: Logger;
  /** Told of every answered lookup (the visited-sites list, issue 54 item 5); never logged. */
  onLookup?: (lookup: LookupEvent) => void;
}

export interface LookupEvent {
  filterId: string;
  qname: string;
  qtype: string;
  decision: Decision;
  rcode: Rcode | string;
}

/**
 * The result of a message sent to a filter id: a DNS message to send back (`ttl`: the smallest TTL in it, for DoH's
 * Cache-Control), an unknown id (REFUSED over DNS, 404 over HTTP, nothing else answered), or bytes that are not even a
 * DNS query (dropped, or the connection closed).
 */
export type Answered = { kind: "answer"; message: Buffer; ttl: number } | { kind: "unknown-filter" } | { kind: "not-dns" };

/**
 * Answers a DNS query for one filter id (the phone): the policy decides, a blocked name gets 0.0.0.0 / :: (other
 * types: no data), a rewritten one a CNAME and its target's records, the rest is forwarded (cached, coalesced).
 * Whatever goes wrong is a DNS error for this query, never an exception for the transport.
 */
export class Resolver {
  private readonly warn: Logger | undefined;

  constructor(private readonly opts: ResolverOptions) {
    this.warn = opts.log && throttledLog(opts.log, "web-filter-resolver");
  }

  /** Whether the filter id is one the resolver answers for (false too when that cannot be read now). */
  async knows(filterId: string): Promise<boolean> {
    try {
      return await this.opts.policy.knownFilter(filterId);
    } catch {
      return false;
    }
  }

  async answer(filterId: string, wire: Buffer, transport: { udp?: boolean } = {}): Promise<Answered> {
    const parsed = parseQuery(wire);
    let known: boolean;
    try {
      known = await this.opts.policy.knownFilter(filterId);
    } catch (err) {
      this.warn?.("error", "web filter: the filter ids could not be read", { error: (err as Error).message });
      if (parsed.ok) return this.reply(parsed.query, { rcode: "SERVFAIL" }, transport.udp);
      return parsed.id === null ? { kind: "not-dns" } : this.error(parsed.id, parsed.flags, "SERVFAIL");
    }
    if (!known) return { kind: "unknown-filter" };
    if (!parsed.ok) return parsed.id === null ? { kind: "not-dns" } : this.error(parsed.id, parsed.flags, parsed.rcode);
    const query = parsed.query;
    if (!this.opts.rateLimit.take(filterId)) return this.reply(query, { rcode: "REFUSED" }, transport.udp);
    let decision: Decision = { action: "allow" };
    let reply: Reply;
    try {
      decision = await this.opts.policy.decide(filterId, query.qname, query.qtype);
      reply = await this.resolve(query, decision);
    } catch (err) {
      // The policy's error may quote the name: it is cut out, so the log never holds a lookup.
      const error = String((err as Error).message).replaceAll(query.qname, "<name>");
      this.warn?.("error", "web filter: a lookup failed", { error });
      reply = { rcode: "SERVFAIL" };
    }
    try {
      this.opts.onLookup?.({ filterId, qname: query.qname, qtype: query.qtype, decision, rcode: reply.rcode });
    } catch (err) {
      this.warn?.("error", "web filter: the lookup listener failed", { error: (err as Error).message.replaceAll(query.qname, "<name>") });
    }
    return this.reply(query, reply, transport.udp);
  }

  private async resolve(query: ParsedQuery, decision: Decision): Promise<Reply> {
    switch (decision.action) {
      case "block":
        return { rcode: "NOERROR", answers: blockedAnswers(query, this.opts.blockedTtl) };
      case "rewrite": {
        const cname: Answer = { type: "CNAME", name: query.question.name, ttl: this.opts.rewriteTtl, data: decision.cname };
        if (query.qtype === "CNAME") return { rcode: "NOERROR", answers: [cname] };
        const target = await this.opts.forwarder.lookup(decision.cname.toLowerCase(), query.qtype);
        return { ...asReply(target), answers: [cname, ...target.answers] };
      }
      case "allow":
        return asReply(await this.opts.forwarder.lookup(query.qname, query.qtype));
    }
  }

  /** `udp`: the answer fits the client's EDNS buffer size, or 512 bytes without EDNS (RFC 1035 §4.2.1), else it is truncated. */
  private reply(query: ParsedQuery, reply: Reply, udp?: boolean): Answered {
    const records = [...(reply.answers ?? []), ...(reply.authorities ?? [])];
    const ttl = records.length ? minTtl(records) : 0;
    const maxBytes = udp ? (query.edns?.udpPayloadSize ?? 512) : undefined;
    try {
      return { kind: "answer", message: encodeReply(query, reply, maxBytes), ttl };
    } catch (err) {
      // An upstream record dns-packet read but cannot write back: this query fails, nothing else.
      this.warn?.("error", "web filter: an answer could not be encoded", { error: (err as Error).message });
      return { kind: "answer", message: encodeReply(query, { rcode: "SERVFAIL" }, maxBytes), ttl: 0 };
    }
  }

  private error(id: number, flags: number, rcode: Rcode): Answered {
    return { kind: "answer", message: encodeError(id, flags, rcode), ttl: 0 };
  }
}

/** A blocked name: A → 0.0.0.0, AAAA → ::, any other type no data (NOERROR, empty), all with the short TTL. */
function blockedAnswers(query: ParsedQuery, ttl: number): Answer[] {
  const name = query.question.name;
  if (query.qtype === "A") return [{ type: "A", name, ttl, data: "0.0.0.0" }];
  if (query.qtype === "AAAA") return [{ type: "AAAA", name, ttl, data: "::" }];
  return [];
}

function asReply(forwarded: Forwarded): Reply {
  // A response code the filter does not pass on (YXDOMAIN and the like, never an answer to a lookup): SERVFAIL.
  const rcode = (Object.hasOwn(RCODE, forwarded.rcode) ? forwarded.rcode : "SERVFAIL") as Rcode;
  return { rcode, answers: forwarded.answers, authorities: forwarded.authorities };
}
