import type { Answer, DecodedPacket } from "dns-packet";

export interface TtlLimits {
  /** The longest a positive answer is kept, whatever its records say (seconds). */
  maxTtl: number;
  /** The longest a negative answer (NXDOMAIN, NODATA) is kept (seconds; RFC 2308 §5 suggests hours at most). */
  maxNegativeTtl: number;
}

type Ttl = { ttl?: number };

/**
 * How long an upstream answer may be cached, in seconds (0: not at all). A positive answer: the smallest TTL of its
 * records. A negative one (NXDOMAIN, or NOERROR without an answer: NODATA): the SOA of the authority section, the
 * smaller of its TTL and its MINIMUM field (RFC 2308 §5); without a SOA it is not cached (RFC 2308 §5). Other
 * response codes are not cached.
 */
export function cacheTtl(packet: DecodedPacket, limits: TtlLimits): number {
  const rcode = (packet as { rcode?: string }).rcode ?? "NOERROR";
  const answers = (packet.answers ?? []).filter((a) => a.type !== "OPT");
  if (rcode === "NOERROR" && answers.length > 0) return Math.min(limits.maxTtl, minTtl(answers));
  if (rcode !== "NOERROR" && rcode !== "NXDOMAIN") return 0;
  const soa = (packet.authorities ?? []).find((a) => a.type === "SOA") as (Answer & { data?: { minimum?: number } }) | undefined;
  if (!soa) return 0;
  return Math.min(limits.maxNegativeTtl, (soa as Ttl).ttl ?? 0, soa.data?.minimum ?? 0);
}

export function minTtl(records: Answer[]): number {
  return records.reduce((min, r) => Math.min(min, (r as Ttl).ttl ?? 0), Infinity);
}

/** The records as served `ageSeconds` after they were received: every TTL counted down (never below 0). */
export function aged(records: Answer[], ageSeconds: number): Answer[] {
  if (ageSeconds <= 0) return records;
  return records.map((r) => ({ ...r, ttl: Math.max(0, ((r as Ttl).ttl ?? 0) - ageSeconds) }) as Answer);
}
