import type { Logger } from "../core/log";
import type { FilterPolicy } from "./resolver/policy";
import { Forwarder } from "./resolver/forwarder";
import { RateLimiter } from "./resolver/rate-limit";
import { Resolver, type LookupEvent } from "./resolver/resolver";
import { parseUpstreams } from "./resolver/upstream/address";
import { UpstreamClient } from "./resolver/upstream/client";
import type { WebFilterSettings } from "./settings";

/** Seconds a SafeSearch-style CNAME is kept by the phone: the rewrite is fixed, so as long as a usual record. */
const REWRITE_TTL = 300;

/** The resolver a process serves DoT, DoH and loopback UDP with: settings, the policy, and optionally a logger and a lookup listener. */
export function createResolver(
  settings: WebFilterSettings,
  policy: FilterPolicy,
  extra: { log?: Logger; onLookup?: (lookup: LookupEvent) => void; upstreamCa?: string | Buffer; now?: () => number } = {},
): Resolver {
  const upstream = new UpstreamClient(parseUpstreams(settings.DNS_UPSTREAM), {
    timeoutMs: settings.DNS_UPSTREAM_TIMEOUT_MS,
    ca: extra.upstreamCa,
    log: extra.log,
  });
  const forwarder = new Forwarder(upstream, {
    maxEntries: settings.DNS_CACHE_ENTRIES,
    maxTtl: settings.DNS_CACHE_MAX_TTL,
    maxNegativeTtl: settings.DNS_NEGATIVE_MAX_TTL,
    now: extra.now,
  });
  return new Resolver({
    policy,
    forwarder,
    rateLimit: new RateLimiter(settings.DNS_RATE_PER_SECOND, settings.DNS_RATE_BURST, extra.now),
    blockedTtl: settings.DNS_BLOCKED_TTL,
    rewriteTtl: REWRITE_TTL,
    log: extra.log,
    onLookup: extra.onLookup,
  });
}
