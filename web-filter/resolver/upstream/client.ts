import { randomInt } from "node:crypto";
import dnsPacket, { type DecodedPacket } from "dns-packet";
import { throttledLog, type Logger } from "../../../core/log";
import { optRecord } from "../message";
import type { UpstreamAddress } from "./address";
import type { ExchangeOptions } from "./exchange";
import { exchangeHttps } from "./https";
import { exchangeStream } from "./stream";
import { exchangeUdp } from "./udp";

export interface UpstreamClientOptions {
  /** How long one upstream has to answer before the next is asked. */
  timeoutMs: number;
  /** Trusted besides the system's certificate authorities (tests: the dev certificate). */
  ca?: string | Buffer;
  log?: Logger;
}

/** Response codes that send the query on to the next upstream: the upstream could not answer, not "there is no such name". */
const TRY_NEXT = new Set(["SERVFAIL", "REFUSED", "NOTIMP", "FORMERR"]);

/**
 * Asks the upstream resolvers of DNS_UPSTREAM, in order, until one answers: a timeout, a failed connection or an
 * answer of SERVFAIL/REFUSED moves on to the next. Each query has a random id (node:crypto), and only a response with
 * that id and the same question is taken (RFC 5452). A truncated UDP answer is asked again over TCP.
 */
export class UpstreamClient {
  private readonly warn: Logger | undefined;

  constructor(
    private readonly upstreams: UpstreamAddress[],
    private readonly opts: UpstreamClientOptions,
  ) {
    // The names looked up are the family's: a failure is logged with the upstream's address only, at most every 10 s.
    this.warn = opts.log && throttledLog(opts.log, "web-filter-upstream");
  }

  async query(name: string, type: string): Promise<DecodedPacket> {
    let failure: Error = new Error("No upstream resolver answered.");
    for (const upstream of this.upstreams) {
      const id = randomInt(0, 65_536);
      const wire = dnsPacket.encode({
        type: "query",
        id,
        flags: dnsPacket.RECURSION_DESIRED,
        questions: [{ name, type: type as "A", class: "IN" }],
        additionals: [optRecord()],
      });
      const exchange: ExchangeOptions = { timeoutMs: this.opts.timeoutMs, ca: this.opts.ca, accept: (m) => matches(m, id, name, type) };
      try {
        let answer = dnsPacket.decode(await send(upstream, wire, exchange));
        if (answer.flag_tc && upstream.kind === "udp")
          answer = dnsPacket.decode(await exchangeStream({ host: upstream.host, port: upstream.port }, wire, exchange));
        const rcode = (answer as { rcode?: string }).rcode ?? "NOERROR";
        if (!TRY_NEXT.has(rcode)) return answer;
        failure = new Error(`The upstream resolver answered ${rcode}.`);
      } catch (err) {
        failure = err as Error;
      }
      this.warn?.("warn", "web filter: an upstream resolver failed", { upstream: upstream.text, error: failure.message });
    }
    throw failure;
  }
}

function send(upstream: UpstreamAddress, wire: Buffer, opts: ExchangeOptions): Promise<Buffer> {
  switch (upstream.kind) {
    case "udp":
      return exchangeUdp(upstream.host, upstream.port, wire, opts);
    case "tls":
      return exchangeStream({ host: upstream.host, port: upstream.port, tls: { servername: upstream.servername } }, wire, opts);
    case "https":
      return exchangeHttps(upstream.url, wire, opts);
  }
}

/** The reply answers this query: a response, the query's id, one question with the same name (any case), type and class. */
export function matches(message: Buffer, id: number, name: string, type: string): boolean {
  if (message.length < 12 || message.readUInt16BE(0) !== id || !(message.readUInt16BE(2) & 0x8000)) return false;
  try {
    const questions = dnsPacket.decode(message).questions ?? [];
    const q = questions[0];
    return questions.length === 1 && q.name.toLowerCase() === name.toLowerCase() && q.type === type && (q.class ?? "IN") === "IN";
  } catch {
    return false;
  }
}
