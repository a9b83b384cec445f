import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createResolver } from "../../create-resolver";
import { DOMAIN, startFilterServers, type FilterServers } from "../../servers/servers.testing";
import { webFilterSettings } from "../../settings";
import { memoryPolicy } from "../policy";
import type { Resolver } from "../resolver";
import { parseUpstreams } from "./address";
import { query } from "./fake-upstream.testing";
import dnsPacket from "dns-packet";

/** tls:// and https:// upstreams, spoken to the filter's own DoT and DoH servers (kid2: no rules) with the dev certificate. */
let s: FilterServers;
beforeAll(async () => {
  s = await startFilterServers();
});
afterAll(() => s?.close());

function frontFor(upstream: string, ca?: Buffer): Resolver {
  const settings = webFilterSettings({ DNS_UPSTREAM: upstream, DNS_UPSTREAM_TIMEOUT_MS: "1000" });
  return createResolver(settings, memoryPolicy({ front: {} }), { upstreamCa: ca });
}

async function lookup(resolver: Resolver, name: string) {
  const answered = await resolver.answer("front", query(name));
  if (answered.kind !== "answer") throw new Error(answered.kind);
  const p = dnsPacket.decode(answered.message) as dnsPacket.DecodedPacket & { rcode: string };
  return { rcode: p.rcode, answers: (p.answers ?? []).map((a) => (a as { data?: unknown }).data) };
}

describe("upstream transports", () => {
  it("asks a tls:// upstream, checking its certificate against the #servername", async () => {
    const r = frontFor(`tls://127.0.0.1:${s.dotPort}#kid2.${DOMAIN}`, s.cert.cert);
    expect(await lookup(r, "example.com")).toEqual({ rcode: "NOERROR", answers: ["93.184.216.34"] });
  });

  it("asks an https:// upstream (RFC 8484 POST), through the handler mounted in Express", async () => {
    const r = frontFor(`https://127.0.0.1:${s.dohPort}/dns-query/kid2`, s.cert.cert);
    expect(await lookup(r, "example.com")).toEqual({ rcode: "NOERROR", answers: ["93.184.216.34"] });
  });

  it("keeps the https:// upstream's connection for the next miss", async () => {
    const r = frontFor(`https://127.0.0.1:${s.dohPort}/dns-query/kid2`, s.cert.cert);
    const before = s.dohConnections();
    await lookup(r, "missing-1.example");
    await lookup(r, "missing-2.example");
    await lookup(r, "missing-3.example");
    expect(s.dohConnections() - before).toBeLessThanOrEqual(1); // 0 when an earlier test's connection is still open
  });

  it("does not trust an upstream whose certificate it cannot check, and fails over to the next", async () => {
    const untrusted = frontFor(`tls://127.0.0.1:${s.dotPort}#kid2.${DOMAIN}`);
    expect((await lookup(untrusted, "example.com")).rcode).toBe("SERVFAIL");
    const wrongName = frontFor(`tls://127.0.0.1:${s.dotPort}#kid2.example.org,https://127.0.0.1:${s.dohPort}/dns-query/kid2`, s.cert.cert);
    expect(await lookup(wrongName, "example.com")).toEqual({ rcode: "NOERROR", answers: ["93.184.216.34"] });
  });
});

describe("DNS_UPSTREAM", () => {
  it("reads udp://, tls:// (with #servername) and https:// addresses in order", () => {
    expect(
      parseUpstreams(
        "udp://192.0.2.1, tls://1.1.1.1#cloudflare-dns.com,tls://dns.quad9.net:8853,https://dns.example/dns-query,udp://[::1]:5353",
      ),
    ).toEqual([
      { kind: "udp", host: "192.0.2.1", port: 53, text: "udp://192.0.2.1" },
      { kind: "tls", host: "1.1.1.1", port: 853, servername: "cloudflare-dns.com", text: "tls://1.1.1.1#cloudflare-dns.com" },
      { kind: "tls", host: "dns.quad9.net", port: 8853, servername: "dns.quad9.net", text: "tls://dns.quad9.net:8853" },
      { kind: "https", url: new URL("https://dns.example/dns-query"), text: "https://dns.example/dns-query" },
      { kind: "udp", host: "::1", port: 5353, text: "udp://[::1]:5353" },
    ]);
  });

  it.each(["", "1.1.1.1", "tcp://1.1.1.1", "udp://1.1.1.1/x", "tls://u:p@1.1.1.1", "http://dns.example/dns-query"])(
    "refuses %j",
    (text) => {
      expect(() => parseUpstreams(text)).toThrow(/DNS_UPSTREAM/);
    },
  );
});
