import tls from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kdig } from "./kdig.testing";
import { DOMAIN, startFilterServers, type FilterServers } from "./servers.testing";

/** A real DNS client (Debian's kdig) over DoT and DoH against the filter's servers, in front of a local upstream. */
let s: FilterServers;
beforeAll(async () => {
  s = await startFilterServers();
});
afterAll(() => s?.close());

const dot = (id: string | null, ...args: string[]) =>
  kdig(["@127.0.0.1", "-p", String(s.dotPort), "+tls", ...(id ? [`+tls-sni=${id}.${DOMAIN}`] : []), ...args]);
const doh = (id: string, ...args: string[]) => kdig(["@127.0.0.1", "-p", String(s.dohPort), `+https=/dns-query/${id}`, ...args]);

describe("DNS-over-TLS with kdig", () => {
  it("forwards an allowed name, then answers it from the cache (the upstream asked once)", async () => {
    const first = await dot("kid1", "example.com");
    expect(first.status, first.output).toBe("NOERROR");
    expect(first.answers).toEqual(["example.com. 300 A 93.184.216.34"]);
    const second = await dot("kid1", "example.com");
    expect(second.answers[0]).toMatch(/^example\.com\. (299|300) A 93\.184\.216\.34$/);
    expect(s.upstream.count("A", "example.com")).toBe(1);
  });

  it("answers a blocked name 0.0.0.0 and a rewritten one by CNAME", async () => {
    expect((await dot("kid1", "www.casino.example")).answers).toEqual(["www.casino.example. 60 A 0.0.0.0"]);
    expect((await dot("kid1", "AAAA", "casino.example")).answers).toEqual(["casino.example. 60 AAAA ::"]);
    expect((await dot("kid1", "www.google.com")).answers).toEqual([
      "www.google.com. 300 CNAME forcesafesearch.google.com.",
      "forcesafesearch.google.com. 3600 A 216.239.38.120",
    ]);
  });

  it("the filter id is the server name's first label: another kid's policy is not this one's", async () => {
    expect((await dot("kid2", "casino.example")).answers).toEqual([]);
    expect(s.upstream.count("A", "casino.example")).toBe(1);
  });

  it("refuses an unknown filter id", async () => {
    const r = await dot("stranger", "example.com");
    expect(r.status, r.output).toBe("REFUSED");
    expect(r.answers).toEqual([]);
  });

  it("closes a connection without a server name (no answer)", async () => {
    const r = await dot(null, "example.com");
    expect(r.status, r.output).toBeNull();
  });

  it("answers several queries on one connection, and closes it when idle", async () => {
    const socket = tls.connect({ host: "127.0.0.1", port: s.dotPort, servername: `kid1.${DOMAIN}`, rejectUnauthorized: false });
    const { query } = await import("../resolver/upstream/fake-upstream.testing");
    const { frame, MessageReader } = await import("../stream-framing");
    await new Promise((r) => socket.once("secureConnect", r));
    socket.write(Buffer.concat([frame(query("example.com", "A", { id: 1 })), frame(query("casino.example", "A", { id: 2 }))]));
    const reader = new MessageReader();
    const ids: number[] = [];
    const closed = new Promise<number>((resolve) => {
      const t0 = Date.now();
      socket.on("close", () => resolve(Date.now() - t0));
    });
    socket.on("data", (chunk: Buffer) => ids.push(...reader.push(chunk).map((m) => m.readUInt16BE(0))));
    const idleFor = await closed;
    expect(ids.sort()).toEqual([1, 2]);
    expect(idleFor).toBeGreaterThanOrEqual(900);
    expect(idleFor).toBeLessThan(5_000);
  });
});

describe("DNS-over-HTTPS with kdig", () => {
  it.each([[[]], [["+https-get"]]])("answers POST and GET (%j) with the filter's decisions", async (method) => {
    const allowed = await doh("kid1", ...method, "example.com");
    expect(allowed.status, allowed.output).toBe("NOERROR");
    expect(allowed.answers[0]).toMatch(/^example\.com\. \d+ A 93\.184\.216\.34$/);
    expect((await doh("kid1", ...method, "casino.example")).answers).toEqual(["casino.example. 60 A 0.0.0.0"]);
  });

  it("answers 404 for an unknown filter id (kdig gets no DNS answer)", async () => {
    const r = await doh("stranger", "example.com");
    expect(r.status, r.output).toBeNull();
    const res = await fetchInsecure(`/dns-query/stranger?dns=AAABAAABAAAAAAAAB2V4YW1wbGUDY29tAAABAAE`);
    expect(res.status).toBe(404);
  });

  it("negative answers are cached too (the upstream asked once for a NODATA)", async () => {
    await doh("kid1", "nodata.example");
    await doh("kid1", "nodata.example");
    expect(s.upstream.count("A", "nodata.example")).toBe(1);
  });
});

/** An HTTPS request to the DoH server that accepts its self-signed certificate. */
async function fetchInsecure(path: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}) {
  const https = await import("node:https");
  return new Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = https.request({
      host: "127.0.0.1",
      port: s.dohPort,
      path,
      method: init.method ?? "GET",
      headers: init.headers,
      rejectUnauthorized: false,
    });
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on("error", reject);
    req.end(init.body);
  });
}
