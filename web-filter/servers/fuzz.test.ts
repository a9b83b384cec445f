import dgram from "node:dgram";
import http2 from "node:http2";
import tls from "node:tls";
import dnsPacket from "dns-packet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../resolver/upstream/fake-upstream.testing";
import { frame, MessageReader } from "../stream-framing";
import { DOMAIN, startFilterServers, type FilterServers } from "./servers.testing";

/**
 * Bad input on every transport: random bytes, truncated and mutated queries, a name compression loop, oversize
 * messages. Each gets a DNS error, a dropped datagram, an HTTP error or a closed connection, never a crash (an
 * exception would fail the file as an unhandled error), and the servers still answer a good query afterwards.
 */
let s: FilterServers;
beforeAll(async () => {
  s = await startFilterServers({ DNS_RATE_BURST: "100000" });
});
afterAll(() => s?.close());

/** A small seeded generator (mulberry32): the same cases on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A header asking one question whose name is a pointer to itself (offset 12): a compression loop. */
const LOOP = Buffer.from([0x12, 0x34, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 0x0c, 0, 1, 0, 1]);

function badMessages(n: number): Buffer[] {
  const rnd = random(54);
  const good = query("example.com", "A", { edns: true });
  const out: Buffer[] = [LOOP, Buffer.alloc(0), Buffer.alloc(11), good.subarray(0, 20), query("example.com", "UNKNOWN_65280" as "A")];
  for (let i = 0; i < n; i++) {
    const kind = i % 3;
    if (kind === 0) out.push(Buffer.from(Array.from({ length: Math.floor(rnd() * 300) }, () => Math.floor(rnd() * 256))));
    else if (kind === 1) out.push(good.subarray(0, Math.floor(rnd() * good.length)));
    else {
      const m = Buffer.from(good);
      for (let j = 0; j < 1 + Math.floor(rnd() * 4); j++) m[Math.floor(rnd() * m.length)] = Math.floor(rnd() * 256);
      out.push(m);
    }
  }
  return out;
}

/** A response (QR set) with the query's id, or nothing: never garbage. */
function expectResponseTo(sent: Buffer, answer: Buffer) {
  expect(answer.length).toBeGreaterThanOrEqual(12);
  expect(answer.readUInt16BE(2) & 0x8000).toBe(0x8000);
  if (sent.length >= 2) expect(answer.readUInt16BE(0)).toBe(sent.readUInt16BE(0));
  expect(() => dnsPacket.decode(answer)).not.toThrow();
}

const rcodeOf = (answer: Buffer) => answer.readUInt16BE(2) & 0xf;

describe("fuzz: loopback UDP", () => {
  it("answers a DNS error or drops, and still answers a good query", async () => {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((r) => socket.bind(0, "127.0.0.1", r));
    const answers: Buffer[] = [];
    socket.on("message", (m) => answers.push(m));
    const send = (m: Buffer) => new Promise((r) => socket.send(m, s.udpPort, "127.0.0.1", r));
    for (const m of [...badMessages(300), Buffer.alloc(5000, 1)]) await send(m);
    await send(LOOP);
    await new Promise((r) => setTimeout(r, 300));
    for (const a of answers) expect(a.readUInt16BE(2) & 0x8000).toBe(0x8000);
    expect(answers.some((a) => a.readUInt16BE(0) === 0x1234 && rcodeOf(a) === 1)).toBe(true); // the loop: FORMERR
    answers.length = 0;
    await send(query("example.com", "A", { id: 777 }));
    await new Promise((r) => setTimeout(r, 300));
    expect(answers.map((a) => [a.readUInt16BE(0), rcodeOf(a)])).toEqual([[777, 0]]);
    socket.close();
  });
});

/** Sends one framed message on a new DoT connection: the answer, or null when the server closed it. */
function dotOnce(message: Buffer, raw?: Buffer): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: "127.0.0.1", port: s.dotPort, servername: `kid1.${DOMAIN}`, rejectUnauthorized: false });
    const reader = new MessageReader();
    socket.on("secureConnect", () => socket.write(raw ?? frame(message)));
    socket.on("data", (chunk: Buffer) => {
      const [answer] = reader.push(chunk);
      if (answer) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(null));
  });
}

describe("fuzz: DNS-over-TLS", () => {
  it("answers a DNS error or closes, and still answers a good query", async () => {
    for (const m of badMessages(60)) {
      const answer = await dotOnce(m);
      if (answer) expectResponseTo(m, answer);
    }
    expect(rcodeOf((await dotOnce(LOOP))!)).toBe(1);
    // An unknown record type is passed on as opaque data (HTTPS and SVCB are such types to dns-packet): the fake upstream's NXDOMAIN.
    expect(rcodeOf((await dotOnce(query("example.com", "UNKNOWN_65280" as "A")))!)).toBe(3);
    const oversize = Buffer.alloc(2 + 5000, 1);
    oversize.writeUInt16BE(5000, 0);
    expect(await dotOnce(Buffer.alloc(0), oversize)).toBeNull();
    expect(await dotOnce(Buffer.from("not dns"))).toBeNull();
    const good = await dotOnce(query("example.com", "A", { id: 778 }));
    expect([good!.readUInt16BE(0), rcodeOf(good!)]).toEqual([778, 0]);
  });

  it("closes a handshake that is not TLS, and keeps serving", async () => {
    const net = await import("node:net");
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect(s.dotPort, "127.0.0.1", () => socket.write(Buffer.alloc(3000, 0x16)));
      socket.on("error", () => undefined);
      socket.on("close", () => resolve(true));
    });
    expect(closed).toBe(true);
    expect(await dotOnce(query("example.com"))).not.toBeNull();
  });
});

/** One DoH request over HTTP/2: its status and body. */
function doh(path: string, method: "GET" | "POST", body?: Buffer, contentType = "application/dns-message") {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${s.dohPort}`, { rejectUnauthorized: false });
    session.on("error", reject);
    const req = session.request({ ":method": method, ":path": path, ...(body ? { "content-type": contentType } : {}) });
    const chunks: Buffer[] = [];
    let status = 0;
    req.on("response", (h) => (status = Number(h[":status"])));
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      session.close();
      resolve({ status, body: Buffer.concat(chunks) });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("fuzz: DNS-over-HTTPS", () => {
  it("answers 200 with a DNS response or an HTTP error, and still answers a good query", async () => {
    for (const m of badMessages(60)) {
      const r = await doh("/dns-query/kid1", "POST", m);
      expect([200, 400]).toContain(r.status);
      if (r.status === 200) expectResponseTo(m, r.body);
    }
    expect((await doh("/dns-query/kid1", "POST", Buffer.alloc(5000, 1))).status).toBe(413);
    expect((await doh("/dns-query/kid1", "POST", query("example.com"), "text/plain")).status).toBe(415);
    expect((await doh("/dns-query/kid1?dns=%%%", "GET")).status).toBe(400);
    expect((await doh(`/dns-query/kid1?dns=${"A".repeat(8000)}`, "GET")).status).toBe(414);
    expect((await doh("/dns-query/kid1", "GET")).status).toBe(400);
    expect((await doh("/dns-query/stranger", "POST", Buffer.alloc(5000, 1))).status).toBe(404);
    const loop = await doh(`/dns-query/kid1?dns=${LOOP.toString("base64url")}`, "GET");
    expect([loop.status, rcodeOf(loop.body)]).toEqual([200, 1]);
    const good = await doh(`/dns-query/kid1?dns=${query("example.com", "A", { id: 0 }).toString("base64url")}`, "GET");
    expect([good.status, good.body.readUInt16BE(0), rcodeOf(good.body)]).toEqual([200, 0, 0]);
  });
});
