import { describe, expect, it } from "vitest";
import type { VisitBucket } from "../../db/queries/web-filter/visits";
import type { LookupEvent } from "../resolver/resolver";
import { createVisitRecorder, visitDomain } from "./recorder";

const T0 = Date.parse("2026-06-01T09:58:00.000Z");
const allow = { action: "allow" } as const;
const lookup = (qname: string, o: Partial<LookupEvent> = {}): LookupEvent => ({
  filterId: "f-mia",
  qname,
  qtype: "A",
  decision: allow,
  rcode: "NOERROR",
  ...o,
});

function setup(o: { maxBuckets?: number; fail?: () => boolean } = {}) {
  let clock = T0;
  const writes: VisitBucket[][] = [];
  const logs: { msg: string; extra?: Record<string, unknown> }[] = [];
  const r = createVisitRecorder({
    profileOf: (id) => ({ "f-mia": "mia", "f-leo": "leo" })[id],
    write: async (b) => {
      if (o.fail?.()) throw Object.assign(new Error("insert into web_visits failed for secret.example"), { code: "SQLITE_BUSY" });
      writes.push(b);
    },
    now: () => clock,
    flushMs: 3_600_000,
    maxBuckets: o.maxBuckets,
    log: (_level: string, msg: string, extra?: Record<string, unknown>) => void logs.push({ msg, extra }),
  } as Parameters<typeof createVisitRecorder>[0]);
  return { r, writes, logs, tick: (ms: number) => (clock += ms) };
}

describe("visitDomain", () => {
  it.each([
    ["WWW.Example.COM.", "example.com"],
    ["mail.example.com", "mail.example.com"],
    ["www.www.example.com", "www.example.com"],
    ["localhost", null],
    ["4.3.2.1.in-addr.arpa", null],
    ["_dns.resolver.arpa", null],
    ["_https._tcp.example.com", null],
  ])("%s is %s", (q, want) => expect(visitDomain(q)).toBe(want));
});

describe("the visit recorder", () => {
  it("coalesces a kid's lookups of a domain per hour into one bucket; a new hour, kid or domain is another", async () => {
    const { r, writes, tick } = setup();
    r.record(lookup("www.games.example"));
    tick(30_000);
    r.record(lookup("games.example", { qtype: "AAAA" }));
    tick(30_000);
    r.record(lookup("GAMES.example.", { qtype: "HTTPS", decision: { action: "block", reason: "category:games" } }));
    r.record(lookup("games.example", { filterId: "f-leo" }));
    tick(60_000); // 10:00:00: the next hour
    r.record(lookup("games.example"));
    r.record(lookup("news.example"));
    expect(r.stats()).toEqual({ buffered: 4, dropped: 0 });
    await r.flush();
    expect(writes).toHaveLength(1);
    const byKey = Object.fromEntries(writes[0]!.map((b) => [`${b.profileId} ${b.hour} ${b.domain}`, b]));
    expect(Object.keys(byKey).sort()).toEqual([
      "leo 2026-06-01T09 games.example",
      "mia 2026-06-01T09 games.example",
      "mia 2026-06-01T10 games.example",
      "mia 2026-06-01T10 news.example",
    ]);
    expect(byKey["mia 2026-06-01T09 games.example"]).toEqual({
      profileId: "mia",
      domain: "games.example",
      hour: "2026-06-01T09",
      firstAt: "2026-06-01T09:58:00.000Z",
      lastAt: "2026-06-01T09:59:00.000Z",
      count: 3,
      blocked: true,
      reason: "category:games",
    });
    // Flushed: nothing waits, and an empty flush writes nothing.
    expect(r.stats().buffered).toBe(0);
    await r.flush();
    expect(writes).toHaveLength(1);
    await r.close();
  });

  it("counts A, AAAA and HTTPS only, and only a known filter id's", async () => {
    const { r, writes } = setup();
    for (const qtype of ["PTR", "TXT", "SRV", "MX", "NS", "CNAME", "SOA"]) r.record(lookup("games.example", { qtype }));
    r.record(lookup("games.example", { filterId: "revoked" }));
    r.record(lookup("1.0.0.127.in-addr.arpa"));
    await r.flush();
    expect(writes).toEqual([]);
    await r.close();
  });

  it("a flood of new names stops at the bound: those past it are dropped and counted, the held ones still count", async () => {
    const { r, writes, logs } = setup({ maxBuckets: 100 });
    for (let i = 0; i < 10_000; i++) r.record(lookup(`n${i}.flood.example`));
    r.record(lookup("n0.flood.example"));
    expect(r.stats()).toEqual({ buffered: 100, dropped: 9_900 });
    await r.flush();
    expect(writes[0]).toHaveLength(100);
    expect(writes[0]!.find((b) => b.domain === "n0.flood.example")!.count).toBe(2);
    // The log says how many, never which.
    expect(logs.map((l) => l.msg)).toEqual(["web filter: visited sites dropped, the buffer was full"]);
    expect(logs[0]!.extra).toEqual({ lookups: 9_900 });
    // After the flush there is room again.
    r.record(lookup("after.example"));
    expect(r.stats()).toEqual({ buffered: 1, dropped: 9_900 });
    await r.close();
  });

  it("a failed write keeps the batch for the next flush (merged with what came since) and logs no name", async () => {
    let failing = true;
    const { r, writes, logs } = setup({ fail: () => failing });
    r.record(lookup("secret.example"));
    await r.flush();
    expect(writes).toEqual([]);
    expect(r.stats().buffered).toBe(1);
    r.record(lookup("secret.example"));
    failing = false;
    await r.close();
    expect(writes).toHaveLength(1);
    expect(writes[0]![0]).toMatchObject({ domain: "secret.example", count: 2 });
    expect(JSON.stringify(logs)).not.toContain("secret");
    expect(logs[0]!.extra).toEqual({ buckets: 1, error: "SQLITE_BUSY" });
  });

  it("flushes by itself every flushMs", async () => {
    const writes: VisitBucket[][] = [];
    const r = createVisitRecorder({ profileOf: () => "mia", write: async (b) => void writes.push(b), flushMs: 20 });
    r.record(lookup("tick.example"));
    await new Promise((res) => setTimeout(res, 80));
    expect(writes.flat().map((b) => b.domain)).toEqual(["tick.example"]);
    await r.close();
  });
});
