import dgram from "node:dgram";
import dnsPacket from "dns-packet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { query } from "../resolver/upstream/fake-upstream.testing";
import { kdig } from "./kdig.testing";
import { startFilterServers, type FilterServers } from "./servers.testing";
import { startLoopbackUdpServer } from "./udp";

let s: FilterServers;
beforeAll(async () => {
  s = await startFilterServers();
});
afterAll(() => s?.close());

async function udpAsk(message: Buffer): Promise<dnsPacket.DecodedPacket> {
  const socket = dgram.createSocket("udp4");
  const answer = new Promise<Buffer>((resolve) => socket.once("message", resolve));
  socket.send(message, s.udpPort, "127.0.0.1");
  try {
    return dnsPacket.decode(await answer);
  } finally {
    socket.close();
  }
}

describe("the loopback UDP server", () => {
  it("answers kdig for its one filter id", async () => {
    const r = await kdig(["@127.0.0.1", "-p", String(s.udpPort), "+notcp", "casino.example"]);
    expect(r.answers, r.output).toEqual(["casino.example. 60 A 0.0.0.0"]);
  });

  it("truncates an answer over 512 bytes without EDNS, and fits it in the client's EDNS buffer", async () => {
    const plain = await udpAsk(query("big.example", "TXT"));
    expect([plain.flag_tc, plain.answers?.length]).toEqual([true, 0]);
    const edns = await udpAsk(query("big.example", "TXT", { edns: true }));
    expect([edns.flag_tc, edns.answers?.length]).toEqual([false, 1]);
  });

  it.each(["0.0.0.0", "192.0.2.1", "::"])("refuses to listen on %s (never an open resolver)", (host) => {
    expect(() => startLoopbackUdpServer({ resolver: s.resolver, filterId: "kid1", port: 0, host })).toThrow(/loopback only/);
  });
});
