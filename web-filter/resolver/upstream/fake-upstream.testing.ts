import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dnsPacket, { type Answer } from "dns-packet";

/** What the fake upstream answers for one "TYPE name" (lower case). */
export interface FakeRecordSet {
  rcode?: "NOERROR" | "NXDOMAIN" | "SERVFAIL";
  answers?: Answer[];
  authorities?: Answer[];
}

export type FakeMode = "answer" | "silent" | "servfail" | "wrong-id" | "wrong-question";

/** The SOA of the fake zone: negative answers are cacheable for min(ttl 300, minimum 60) = 60 s. */
export const FAKE_SOA: Answer = {
  type: "SOA",
  name: "test",
  ttl: 300,
  data: { mname: "ns.test", rname: "hostmaster.test", serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 60 },
};

/**
 * A local upstream DNS server over UDP for the tests: fixed records with their TTLs, NXDOMAIN (with FAKE_SOA) for
 * the rest, and a count of the queries it got per "TYPE name". `mode` makes it misbehave: never answer, SERVFAIL,
 * or answer with a wrong id or question (which a careful client must ignore).
 */
export async function startFakeUpstream(records: Record<string, FakeRecordSet>, opts: { delayMs?: number; mode?: FakeMode } = {}) {
  const socket = dgram.createSocket("udp4");
  const queries = new Map<string, number>();
  const state = { mode: opts.mode ?? "answer", delayMs: opts.delayMs ?? 0 };
  socket.on("message", (message, from) => {
    const query = dnsPacket.decode(message);
    const q = query.questions![0];
    const key = `${q.type} ${q.name.toLowerCase()}`;
    queries.set(key, (queries.get(key) ?? 0) + 1);
    if (state.mode === "silent") return;
    const set = records[key] ?? { rcode: "NXDOMAIN" as const, authorities: [FAKE_SOA] };
    const rcode = state.mode === "servfail" ? "SERVFAIL" : (set.rcode ?? "NOERROR");
    const reply = dnsPacket.encode({
      type: "response",
      id: state.mode === "wrong-id" ? (query.id! + 1) % 65_536 : query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 }[rcode],
      questions: [state.mode === "wrong-question" ? { ...q, name: `other.${q.name}` } : q],
      answers: rcode === "NOERROR" ? (set.answers ?? []) : [],
      authorities: set.authorities ?? [],
    });
    setTimeout(() => socket.send(reply, from.port, from.address), state.delayMs);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const port = (socket.address() as AddressInfo).port;
  return {
    port,
    address: `udp://127.0.0.1:${port}`,
    state,
    /** How many queries for `name` of `type` reached this upstream. */
    count: (type: string, name: string) => queries.get(`${type} ${name}`) ?? 0,
    total: () => [...queries.values()].reduce((a, b) => a + b, 0),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
export type FakeUpstream = Awaited<ReturnType<typeof startFakeUpstream>>;

export const a = (name: string, data: string, ttl: number): Answer => ({ type: "A", name, ttl, data });
export const aaaa = (name: string, data: string, ttl: number): Answer => ({ type: "AAAA", name, ttl, data });

/** A DNS query's bytes (RD set; `edns` adds an OPT record). */
export function query(name: string, type = "A", opts: { id?: number; edns?: boolean } = {}): Buffer {
  return dnsPacket.encode({
    type: "query",
    id: opts.id ?? 4242,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: type as "A", class: "IN" }],
    additionals: opts.edns
      ? [{ type: "OPT", name: ".", udpPayloadSize: 1232, extendedRcode: 0, ednsVersion: 0, flags: 0, flag_do: false, options: [] }]
      : [],
  });
}
