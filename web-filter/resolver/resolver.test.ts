import dnsPacket from "dns-packet";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../core/log";
import { createResolver } from "../create-resolver";
import { webFilterSettings } from "../settings";
import { a, aaaa, FAKE_SOA, query, startFakeUpstream, type FakeUpstream } from "./upstream/fake-upstream.testing";
import { memoryPolicy } from "./policy";
import { RateLimiter } from "./rate-limit";
import { Resolver, type LookupEvent } from "./resolver";

const RECORDS = {
  "A example.com": { answers: [a("example.com", "93.184.216.34", 300)] },
  "AAAA example.com": { answers: [aaaa("example.com", "2606:2800:220:1:248:1893:25c8:1946", 300)] },
  "A short.example": { answers: [a("short.example", "192.0.2.7", 5)] },
  "A nodata.example": { authorities: [FAKE_SOA] },
  "A forcesafesearch.google.com": { answers: [a("forcesafesearch.google.com", "216.239.38.120", 3600)] },
};
const POLICY = memoryPolicy({
  kid1: {
    blocked: { "casino.example": "gambling" },
    rewrites: { "www.google.com": "forcesafesearch.google.com" },
  },
});

const upstreams: FakeUpstream[] = [];
async function upstream(opts?: Parameters<typeof startFakeUpstream>[1]) {
  const u = await startFakeUpstream(RECORDS, opts);
  upstreams.push(u);
  return u;
}
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

function resolverFor(addresses: string[], extra: Parameters<typeof createResolver>[2] = {}, env: Record<string, string> = {}): Resolver {
  const settings = webFilterSettings({ DNS_UPSTREAM: addresses.join(","), DNS_UPSTREAM_TIMEOUT_MS: "300", ...env });
  return createResolver(settings, POLICY, extra);
}

async function ask(resolver: Resolver, name: string, type = "A", filterId = "kid1") {
  const answered = await resolver.answer(filterId, query(name, type));
  if (answered.kind !== "answer") throw new Error(`no answer: ${answered.kind}`);
  const packet = dnsPacket.decode(answered.message) as dnsPacket.DecodedPacket & { rcode: string };
  return { packet, rcode: packet.rcode, answers: packet.answers ?? [], ttl: answered.ttl };
}

describe("the resolver", () => {
  it("forwards an allowed name and answers with the upstream's records, the question as asked", async () => {
    const u = await upstream();
    const r = await ask(resolverFor([u.address]), "Example.COM");
    expect(r.rcode).toBe("NOERROR");
    expect(r.answers).toMatchObject([{ type: "A", data: "93.184.216.34", ttl: 300 }]);
    expect(r.packet.id).toBe(4242);
    expect(r.packet.questions).toEqual([{ name: "Example.COM", type: "A", class: "IN" }]);
    expect(r.packet.flag_rd && r.packet.flag_ra).toBe(true);
  });

  it("answers a second lookup from the cache, its TTL counted down, until the TTL runs out", async () => {
    const u = await upstream();
    let now = 1_000_000;
    const resolver = resolverFor([u.address], { now: () => now });
    await ask(resolver, "short.example");
    now += 3_000;
    const cached = await ask(resolver, "short.example");
    expect(u.count("A", "short.example")).toBe(1);
    expect(cached.answers).toMatchObject([{ data: "192.0.2.7", ttl: 2 }]);
    now += 2_000; // 5 s after: expired
    const fresh = await ask(resolver, "short.example");
    expect(u.count("A", "short.example")).toBe(2);
    expect(fresh.answers).toMatchObject([{ ttl: 5 }]);
  });

  it("caps the cached TTL at DNS_CACHE_MAX_TTL", async () => {
    const u = await upstream();
    let now = 0;
    const resolver = resolverFor([u.address], { now: () => now }, { DNS_CACHE_MAX_TTL: "10" });
    await ask(resolver, "example.com");
    now += 10_000;
    await ask(resolver, "example.com");
    expect(u.count("A", "example.com")).toBe(2);
  });

  it("caches NXDOMAIN and NODATA for the SOA's minimum (RFC 2308)", async () => {
    const u = await upstream();
    let now = 0;
    const resolver = resolverFor([u.address], { now: () => now });
    expect((await ask(resolver, "missing.example")).rcode).toBe("NXDOMAIN");
    const nodata = await ask(resolver, "nodata.example");
    expect([nodata.rcode, nodata.answers]).toEqual(["NOERROR", []]);
    now += 59_000;
    expect((await ask(resolver, "missing.example")).rcode).toBe("NXDOMAIN");
    await ask(resolver, "nodata.example");
    expect([u.count("A", "missing.example"), u.count("A", "nodata.example")]).toEqual([1, 1]);
    now += 1_000; // min(SOA ttl 300, minimum 60) = 60 s
    await ask(resolver, "missing.example");
    expect(u.count("A", "missing.example")).toBe(2);
  });

  it("asks upstream once for identical lookups in flight (coalescing)", async () => {
    const u = await upstream({ delayMs: 100 });
    const resolver = resolverFor([u.address]);
    const all = await Promise.all(Array.from({ length: 20 }, () => ask(resolver, "example.com")));
    expect(all.every((r) => (r.answers[0] as { data?: string })?.data === "93.184.216.34")).toBe(true);
    expect(u.count("A", "example.com")).toBe(1);
  });

  it.each(["silent", "servfail", "wrong-id", "wrong-question"] as const)(
    "fails over to the next upstream when the first is %s",
    async (mode) => {
      const bad = await upstream({ mode });
      const good = await upstream();
      const r = await ask(resolverFor([bad.address, good.address]), "example.com");
      expect(r.answers).toMatchObject([{ data: "93.184.216.34" }]);
      expect([bad.count("A", "example.com"), good.count("A", "example.com")]).toEqual([1, 1]);
    },
  );

  it("fails over at once when nothing listens on the first upstream", async () => {
    const dead = await startFakeUpstream(RECORDS); // not in `upstreams`: closed here, now
    await dead.close();
    const good = await upstream();
    const t0 = Date.now();
    const r = await ask(resolverFor([dead.address, good.address], {}, { DNS_UPSTREAM_TIMEOUT_MS: "5000" }), "example.com");
    expect(r.answers).toMatchObject([{ data: "93.184.216.34" }]);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("asks again over TCP when the UDP answer is truncated", async () => {
    const u = await upstream({ mode: "truncate" });
    const r = await ask(resolverFor([u.address]), "example.com");
    expect(r.answers).toMatchObject([{ data: "93.184.216.34" }]);
    expect([u.count("A", "example.com"), u.tcpCount()]).toEqual([2, 1]);
  });

  it("answers SERVFAIL, uncached, when no upstream answers", async () => {
    const bad = await upstream({ mode: "silent" });
    const resolver = resolverFor([bad.address]);
    expect((await ask(resolver, "example.com")).rcode).toBe("SERVFAIL");
    bad.state.mode = "answer";
    expect((await ask(resolver, "example.com")).rcode).toBe("NOERROR");
  });

  it("answers a blocked name and its subdomains 0.0.0.0 / :: with the short TTL, other types with no data, without asking upstream", async () => {
    const u = await upstream();
    const resolver = resolverFor([u.address], {}, { DNS_BLOCKED_TTL: "42" });
    expect((await ask(resolver, "casino.example")).answers).toEqual([
      { type: "A", name: "casino.example", ttl: 42, class: "IN", flush: false, data: "0.0.0.0" },
    ]);
    expect((await ask(resolver, "www.Casino.example", "AAAA")).answers).toMatchObject([{ type: "AAAA", ttl: 42, data: "::" }]);
    const txt = await ask(resolver, "casino.example", "TXT");
    expect([txt.rcode, txt.answers]).toEqual(["NOERROR", []]);
    expect(u.total()).toBe(0);
  });

  it("rewrites by CNAME (SafeSearch): the CNAME and the target's address", async () => {
    const u = await upstream();
    const r = await ask(resolverFor([u.address]), "www.google.com");
    expect(r.answers).toMatchObject([
      { type: "CNAME", name: "www.google.com", data: "forcesafesearch.google.com" },
      { type: "A", name: "forcesafesearch.google.com", data: "216.239.38.120" },
    ]);
    expect(u.count("A", "www.google.com")).toBe(0);
  });

  it("refuses an unknown filter id without asking anyone", async () => {
    const u = await upstream();
    expect(await resolverFor([u.address]).answer("stranger", query("example.com"))).toEqual({ kind: "unknown-filter" });
    expect(u.total()).toBe(0);
  });

  it("answers REFUSED past the per-id rate, other ids unaffected", async () => {
    const u = await upstream();
    const resolver = createResolver(
      webFilterSettings({ DNS_UPSTREAM: u.address, DNS_RATE_PER_SECOND: "1", DNS_RATE_BURST: "3" }),
      memoryPolicy({ kid1: {}, kid2: {} }),
      { now: () => 0 },
    );
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await ask(resolver, "example.com")).rcode);
    expect(codes).toEqual(["NOERROR", "NOERROR", "NOERROR", "REFUSED", "REFUSED"]);
    expect((await ask(resolver, "example.com", "A", "kid2")).rcode).toBe("NOERROR");
  });

  it("answers FORMERR to a query with two questions, NOTIMP to a zone transfer, and drops what is not DNS or too large", async () => {
    const resolver = resolverFor(["udp://127.0.0.1:9"]);
    const two = dnsPacket.encode({
      type: "query",
      id: 7,
      questions: [
        { name: "a.example", type: "A" },
        { name: "b.example", type: "A" },
      ],
    });
    const formerr = await resolver.answer("kid1", two);
    expect(formerr.kind === "answer" && (dnsPacket.decode(formerr.message) as { rcode?: string }).rcode).toBe("FORMERR");
    const axfr = await resolver.answer("kid1", query("example.com", "AXFR"));
    expect(axfr.kind === "answer" && (dnsPacket.decode(axfr.message) as { rcode?: string }).rcode).toBe("NOTIMP");
    expect(await resolver.answer("kid1", Buffer.from("hello"))).toEqual({ kind: "not-dns" });
    // A good query with bytes after it, over the 4 KB a query may have: not read at all.
    const oversize = Buffer.concat([query("example.com"), Buffer.alloc(4096)]);
    expect(await resolver.answer("kid1", oversize)).toEqual({ kind: "not-dns" });
  });

  it("answers SERVFAIL when an upstream record cannot be written back, instead of throwing", async () => {
    const forwarder = {
      lookup: async () => ({ rcode: "NOERROR", answers: [{ type: "MX", name: "example.com", ttl: 60 } as never], authorities: [] }),
    };
    const resolver = new Resolver({
      policy: POLICY,
      forwarder: forwarder as never,
      rateLimit: new RateLimiter(10, 10),
      blockedTtl: 60,
      rewriteTtl: 300,
    });
    expect((await ask(resolver, "example.com", "MX")).rcode).toBe("SERVFAIL");
  });

  it("never writes a looked-up name to the log, even when the policy's or the listener's error quotes it", async () => {
    const bad = await upstream({ mode: "silent" });
    const lines: string[] = [];
    // One logger per resolver: each has its own budget of repeated lines (throttledLog).
    const log = () => createLogger("debug", { stdout: (line) => lines.push(line) });
    await ask(resolverFor([bad.address], { log: log() }), "secret-one.example");
    const failing = {
      knownFilter: () => true,
      decide: (_id: string, qname: string) => Promise.reject(new Error(`policy down for ${qname}`)),
    };
    await ask(createResolver(webFilterSettings({ DNS_UPSTREAM: bad.address }), failing, { log: log() }), "secret-two.example");
    const onLookup = (e: LookupEvent) => {
      throw new Error(`listener down for ${e.qname}`);
    };
    const listened = await ask(resolverFor([bad.address], { log: log(), onLookup }), "casino.example");
    expect(listened.answers).toMatchObject([{ data: "0.0.0.0" }]); // the listener's failure is not the lookup's
    expect(lines.map((l) => JSON.parse(l).msg)).toEqual([
      "web filter: an upstream resolver failed",
      "web filter: a lookup failed",
      "web filter: a lookup failed",
      "web filter: the lookup listener failed",
    ]);
    expect(lines.join("\n")).not.toMatch(/secret|casino/);
    expect(lines.join("\n")).toContain("policy down for <name>");
  });

  it("tells the listener every lookup, with the decision (the visited-sites list)", async () => {
    const u = await upstream();
    const seen: LookupEvent[] = [];
    const resolver = resolverFor([u.address], { onLookup: (e) => seen.push(e) });
    await ask(resolver, "casino.example");
    await ask(resolver, "example.com", "AAAA");
    expect(seen).toEqual([
      { filterId: "kid1", qname: "casino.example", qtype: "A", decision: { action: "block", reason: "gambling" }, rcode: "NOERROR" },
      { filterId: "kid1", qname: "example.com", qtype: "AAAA", decision: { action: "allow" }, rcode: "NOERROR" },
    ]);
  });
});
