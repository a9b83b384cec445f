import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import net from "node:net";
import dnsPacket, { type Answer } from "dns-packet";
import { frame, MessageReader } from "../../stream-framing";

/** What the fake upstream answers for one "TYPE name" (lower case). */
export interface FakeRecordSet {
  rcode?: "NOERROR" | "NXDOMAIN" | "SERVFAIL";
  answers?: Answer[];
  authorities?: Answer[];
}

export type FakeMode = "answer" | "silent" | "servfail" | "wrong-id" | "wrong-question" | "truncate";

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
 * answer with a wrong id or question (which a careful client must ignore), or truncate every UDP answer (TC, no
 * records), when the same port answers in full over TCP.
 */
export async function startFakeUpstream(records: Record<string, FakeRecordSet>, opts: { delayMs?: number; mode?: FakeMode } = {}) {
  const queries = new Map<string, number>();
  const state = { mode: opts.mode ?? "answer", delayMs: opts.delayMs ?? 0 };
  const tcpQueries = { count: 0 };
  /** The reply to a query (null: none), counted per "TYPE name"; over TCP the mode "truncate" answers in full. */
  const reply = (message: Buffer, overTcp: boolean): Buffer | null => {
    const query = dnsPacket.decode(message);
    const q = query.questions![0];
    const key = `${q.type} ${q.name.toLowerCase()}`;
    queries.set(key, (queries.get(key) ?? 0) + 1);
    if (overTcp) tcpQueries.count++;
    if (state.mode === "silent") return null;
    const set = records[key] ?? { rcode: "NXDOMAIN" as const, authorities: [FAKE_SOA] };
    const rcode = state.mode === "servfail" ? "SERVFAIL" : (set.rcode ?? "NOERROR");
    const truncated = state.mode === "truncate" && !overTcp;
    return dnsPacket.encode({
      type: "response",
      id: state.mode === "wrong-id" ? (query.id! + 1) % 65_536 : query.id,
      flags:
        dnsPacket.RECURSION_DESIRED |
        dnsPacket.RECURSION_AVAILABLE |
        (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0) |
        { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 }[rcode],
      questions: [state.mode === "wrong-question" ? { ...q, name: `other.${q.name}` } : q],
      answers: rcode === "NOERROR" && !truncated ? (set.answers ?? []) : [],
      authorities: truncated ? [] : (set.authorities ?? []),
    });
  };
  // DNS over TCP on the same port number, for the retry of a truncated answer (RFC 7766).
  const tcp = net.createServer((conn) => {
    const reader = new MessageReader();
    conn.on("error", () => undefined);
    conn.on("data", (chunk: Buffer) => {
      for (const m of reader.push(chunk)) {
        const answer = reply(m, true);
        if (answer) conn.write(frame(answer));
      }
    });
  });
  const { socket, port } = await bindBoth(tcp);
  socket.on("message", (message, from) => {
    const answer = reply(message, false);
    if (answer) setTimeout(() => socket.send(answer, from.port, from.address), state.delayMs);
  });
  return {
    port,
    address: `udp://127.0.0.1:${port}`,
    state,
    /** How many queries for `name` of `type` reached this upstream. */
    count: (type: string, name: string) => queries.get(`${type} ${name}`) ?? 0,
    total: () => [...queries.values()].reduce((a, b) => a + b, 0),
    /** How many of them came over TCP. */
    tcpCount: () => tcpQueries.count,
    close: async () => {
      await new Promise<void>((resolve) => socket.close(() => resolve()));
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    },
  };
}
/** A port number free for both UDP and TCP: the UDP socket takes one, then TCP tries the same (another when it is taken). */
async function bindBoth(tcp: net.Server): Promise<{ socket: dgram.Socket; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    const port = (socket.address() as AddressInfo).port;
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once("error", reject);
        tcp.listen(port, "127.0.0.1", () => {
          tcp.off("error", reject);
          resolve();
        });
      });
      return { socket, port };
    } catch (err) {
      socket.close();
      if (attempt >= 20) throw err;
    }
  }
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
