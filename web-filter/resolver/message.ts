import dnsPacket, { type Answer, type DecodedPacket, type Packet, type Question } from "dns-packet";

/** The DNS response codes the filter answers with (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;
export type Rcode = keyof typeof RCODE;

/** The largest query the filter reads (docs/web-filter.md "Bad input and safety"): one question (a name ≤ 255 bytes) plus EDNS. */
export const MAX_QUERY_BYTES = 4096;
/** The EDNS buffer size the filter advertises and asks upstream for (the DNS flag day 2020 value: no IP fragmentation). */
export const EDNS_UDP_SIZE = 1232;
const HEADER_BYTES = 12;
const OPCODE_QUERY = 0;
/** Meta types no stub resolver sends to a filter: zone transfers, MAILB/MAILA, TKEY, TSIG; OPT is never a question (dns-packet's names). */
const UNSERVED_TYPES = new Set(["OPT", "TKEY", "TSIG", "IXFR", "AXFR", "UNKNOWN_253", "UNKNOWN_254"]);
/** A name the filter passes on: printable ASCII only (no spaces or control characters), as hostnames are on the wire. */
const NAME = /^[\x21-\x7e]+$/;

/** A query the filter can answer: one question of class IN, its name in lower case without the final dot. */
export interface ParsedQuery {
  id: number;
  /** The query's flags (RD, CD) to echo. */
  flags: number;
  question: Question;
  qname: string;
  qtype: string;
  /** The client spoke EDNS: its answer carries an OPT record, and UDP may be larger than 512 bytes. */
  edns: { udpPayloadSize: number } | null;
}

export type QueryParse =
  | { ok: true; query: ParsedQuery }
  | { ok: false; id: number; flags: number; rcode: Rcode }
  | { ok: false; id: null };

/**
 * Reads a query off the wire. Not a query at all (under 12 bytes, over MAX_QUERY_BYTES, or a response): `id: null`, the
 * transport drops it or closes. A header but no servable question: the response code to answer with (FORMERR for what
 * does not parse, NOTIMP for other opcodes and meta types).
 */
export function parseQuery(wire: Buffer): QueryParse {
  if (wire.length < HEADER_BYTES || wire.length > MAX_QUERY_BYTES) return { ok: false, id: null };
  const id = wire.readUInt16BE(0);
  const rawFlags = wire.readUInt16BE(2);
  const flags = rawFlags & (dnsPacket.RECURSION_DESIRED | dnsPacket.CHECKING_DISABLED);
  if (rawFlags & 0x8000) return { ok: false, id: null }; // a response sent to us: never answer it (no reflection loops)
  if (((rawFlags >> 11) & 0xf) !== OPCODE_QUERY) return { ok: false, id, flags, rcode: "NOTIMP" };
  let packet: DecodedPacket;
  try {
    packet = dnsPacket.decode(wire);
  } catch {
    return { ok: false, id, flags, rcode: "FORMERR" };
  }
  const questions = packet.questions ?? [];
  if (questions.length !== 1 || (packet.answers?.length ?? 0) > 0 || (packet.authorities?.length ?? 0) > 0)
    return { ok: false, id, flags, rcode: "FORMERR" };
  const question = questions[0];
  if ((question.class ?? "IN") !== "IN" || !NAME.test(question.name) || question.type === ("UNKNOWN_0" as string))
    return { ok: false, id, flags, rcode: "FORMERR" };
  if (UNSERVED_TYPES.has(question.type)) return { ok: false, id, flags, rcode: "NOTIMP" };
  const opts = (packet.additionals ?? []).filter((a) => a.type === "OPT");
  if (opts.length > 1) return { ok: false, id, flags, rcode: "FORMERR" };
  const opt = opts[0] as { udpPayloadSize?: number } | undefined;
  return {
    ok: true,
    query: {
      id,
      flags,
      question: { name: question.name, type: question.type, class: "IN" },
      qname: question.name.toLowerCase().replace(/\.$/, ""),
      qtype: question.type,
      edns: opt ? { udpPayloadSize: Math.max(512, Math.min(opt.udpPayloadSize ?? 512, EDNS_UDP_SIZE)) } : null,
    },
  };
}

export interface Reply {
  rcode: Rcode;
  answers?: Answer[];
  authorities?: Answer[];
}

/**
 * The response to a query: its id, its question as asked (case kept), RD and CD echoed, RA set, and an OPT record when the
 * query had one. `maxBytes` (UDP) truncates: an answer that does not fit is sent empty with TC, and the client retries over TCP.
 */
export function encodeReply(query: ParsedQuery, reply: Reply, maxBytes = 65_535): Buffer {
  const packet: Packet = {
    type: "response",
    id: query.id,
    flags: query.flags | dnsPacket.RECURSION_AVAILABLE | RCODE[reply.rcode],
    questions: [query.question],
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
    additionals: query.edns ? [optRecord()] : [],
  };
  const wire = dnsPacket.encode(packet);
  if (wire.length <= maxBytes) return wire;
  return dnsPacket.encode({ ...packet, flags: (packet.flags ?? 0) | dnsPacket.TRUNCATED_RESPONSE, answers: [], authorities: [] });
}

/** A response with no question: what a query that did not parse gets (its id and flags are all that is known). */
export function encodeError(id: number, flags: number, rcode: Rcode): Buffer {
  return dnsPacket.encode({ type: "response", id, flags: flags | dnsPacket.RECURSION_AVAILABLE | RCODE[rcode], questions: [] });
}

/** REFUSED for a query to an unknown filter id: its id, RD and CD echoed, nothing else said (not even the question). */
export function refusedFor(wire: Buffer): Buffer {
  return encodeError(wire.readUInt16BE(0), wire.readUInt16BE(2) & (dnsPacket.RECURSION_DESIRED | dnsPacket.CHECKING_DISABLED), "REFUSED");
}

export function optRecord(): Answer {
  return { type: "OPT", name: ".", udpPayloadSize: EDNS_UDP_SIZE, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] };
}
