import { randomInt } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import tls from "node:tls";
import dnsPacket from "dns-packet";
import type { PrivateDnsState } from "../../core/private-dns";

/**
 * The simulated phone's Private DNS (issue 54 item 4): like Android, with a hostname set it sends every lookup over
 * DNS-over-TLS (RFC 7858) to that host, naming it as the TLS server name, so the web filter knows whose lookup it is.
 * The simulator cannot resolve the hostname the way a phone does (`<filter id>.dns.localhost` is nobody's address), so
 * it is told where the filter listens (`DotTarget`: the web process's DNS_DOT_PORT) and connects there. With Private DNS
 * off or Automatic, the lookups would go to the network's resolver: the simulator records them as not filtered.
 */

export interface DotTarget {
  /** Where the filter's DNS-over-TLS listens (127.0.0.1 and DNS_DOT_PORT for a local portal). */
  host: string;
  port: number;
  /**
   * The certificate to trust: the development one the portal made (`DATA_DIR/web-filter-tls/<domain>.crt`,
   * `devCertificateFile`), self-signed, so it is its own authority. The server name is still checked against it.
   */
  ca?: string | Buffer;
  /**
   * Accept any certificate (`--dot-insecure`): only for a portal whose development certificate the simulator cannot
   * read (another machine's DATA_DIR). Never what a phone does: Android refuses a certificate it does not trust.
   */
  insecure?: boolean;
  timeoutMs?: number;
}

/** The development certificate of a portal run from `dataDir` for this hostname's filter domain (web-filter/dev-cert.ts). */
export function devCertificateFile(dataDir: string, hostname: string): string {
  const domain = hostname.toLowerCase().split(".").slice(1).join(".");
  return path.join(dataDir, "web-filter-tls", `${domain}.crt`);
}

/** The development certificate for `hostname` when the portal's data directory holds it; undefined otherwise. */
export function readDevCertificate(dataDir: string, hostname: string): Buffer | undefined {
  const file = devCertificateFile(dataDir, hostname);
  return existsSync(file) ? readFileSync(file) : undefined;
}

export type LookupType = "A" | "AAAA";

/** One lookup the phone made, as it records it. */
export interface PhoneLookup {
  name: string;
  type: LookupType;
  at: string;
  /** "filter": sent to the Private DNS hostname over DoT; "network": Private DNS off or Automatic (not filtered). */
  via: "filter" | "network";
  /** The server name the lookup went to (via "filter"). */
  hostname?: string;
  /** The answer's response code (NOERROR, REFUSED, SERVFAIL…); absent when there was no answer. */
  rcode?: string;
  addresses: string[];
  /** The filter's blocked answer: 0.0.0.0 (A) or :: (AAAA) (docs/web-filter.md). */
  blocked: boolean;
  /** Why there was no answer (connection refused, certificate, timeout). */
  error?: string;
}

/** Whether an answer is the filter's block: every address of the asked type is 0.0.0.0 or :: (and there is one). */
export function isBlockedAnswer(addresses: readonly string[]): boolean {
  return addresses.length > 0 && addresses.every((a) => a === "0.0.0.0" || a === "::" || a === "0:0:0:0:0:0:0:0");
}

/** One query over DNS-over-TLS to `servername` at `target`; resolves with the answer's code and addresses of `type`. */
export function dotQuery(
  target: DotTarget,
  servername: string,
  name: string,
  type: LookupType,
): Promise<{ rcode: string; addresses: string[] }> {
  const id = randomInt(0, 65_536);
  const query = dnsPacket.encode({ type: "query", id, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: "IN" }] });
  const framed = Buffer.alloc(2 + query.length);
  framed.writeUInt16BE(query.length, 0);
  query.copy(framed, 2);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      servername,
      ...(target.ca ? { ca: target.ca } : {}),
      rejectUnauthorized: !target.insecure,
      // The filter's certificate names `*.<domain>`: the name checked is the server name, not the address connected to.
      checkServerIdentity: (_host, cert) => (target.insecure ? undefined : tls.checkServerIdentity(servername, cert)),
    });
    let buf = Buffer.alloc(0);
    const done = (err: Error | null, value?: { rcode: string; addresses: string[] }) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value!);
    };
    const timer = setTimeout(
      () => done(new Error(`no answer from ${target.host}:${target.port} within the timeout`)),
      target.timeoutMs ?? 3_000,
    );
    socket.once("secureConnect", () => socket.write(framed));
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 2 || buf.length < 2 + buf.readUInt16BE(0)) return;
      try {
        const answer = dnsPacket.decode(buf.subarray(2, 2 + buf.readUInt16BE(0)));
        if (answer.id !== id) return done(new Error("the answer's id is not the query's"));
        const addresses = (answer.answers ?? []).filter((r) => r.type === type).map((r) => String((r as { data: unknown }).data));
        done(null, { rcode: (answer as { rcode?: string }).rcode ?? "NOERROR", addresses });
      } catch (err) {
        done(err instanceof Error ? err : new Error(String(err)));
      }
    });
    socket.once("error", (err) => done(err));
    socket.once("close", () => done(new Error("the filter closed the connection without an answer")));
  });
}

/**
 * A lookup as the phone makes it with this Private DNS: over DoT to the hostname when one is set (and the simulator
 * knows where the filter listens), else through the network's resolver (not simulated: recorded, no answer).
 */
export async function phoneLookup(
  state: PrivateDnsState,
  target: DotTarget | undefined,
  name: string,
  type: LookupType = "A",
  at: Date = new Date(),
): Promise<PhoneLookup> {
  const base = { name: name.toLowerCase().replace(/\.+$/, ""), type, at: at.toISOString() };
  if (state.mode !== "hostname" || !state.hostname || !target) return { ...base, via: "network", addresses: [], blocked: false };
  try {
    const { rcode, addresses } = await dotQuery(target, state.hostname, base.name, type);
    return {
      ...base,
      via: "filter",
      hostname: state.hostname,
      rcode,
      addresses,
      blocked: rcode === "NOERROR" && isBlockedAnswer(addresses),
    };
  } catch (err) {
    return {
      ...base,
      via: "filter",
      hostname: state.hostname,
      addresses: [],
      blocked: false,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}
