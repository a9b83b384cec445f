import { mkdtempSync, rmSync } from "node:fs";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { createResolver } from "../create-resolver";
import { devCertificate } from "../dev-cert";
import { memoryPolicy } from "../resolver/policy";
import { a, FAKE_SOA, startFakeUpstream } from "../resolver/upstream/fake-upstream.testing";
import { webFilterSettings } from "../settings";
import { createDohHandler } from "./doh";
import { startDotServer } from "./dot";
import { startLoopbackUdpServer } from "./udp";

export const DOMAIN = "dns.localhost";

/**
 * The three servers as a process would run them, on free ports, in front of a fake upstream (fixed records, query
 * counts) and a memory policy: kid1 has casino.example blocked and www.google.com rewritten to SafeSearch. The dev
 * certificate is generated into a temporary DATA_DIR, as in development.
 */
export async function startFilterServers(env: Record<string, string> = {}) {
  const upstream = await startFakeUpstream({
    "A example.com": { answers: [a("example.com", "93.184.216.34", 300)] },
    "A forcesafesearch.google.com": { answers: [a("forcesafesearch.google.com", "216.239.38.120", 3600)] },
    "A nodata.example": { authorities: [FAKE_SOA] },
    "TXT big.example": { answers: [{ type: "TXT", name: "big.example", ttl: 60, data: Array.from({ length: 4 }, () => "x".repeat(200)) }] },
  });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "web-filter-"));
  const settings = webFilterSettings({ DATA_DIR: dataDir, DNS_UPSTREAM: upstream.address, DNS_UPSTREAM_TIMEOUT_MS: "500", ...env });
  const policy = memoryPolicy({
    kid1: { blocked: { "casino.example": "gambling" }, rewrites: { "www.google.com": "forcesafesearch.google.com" } },
    kid2: {},
  });
  const resolver = createResolver(settings, policy);
  const cert = devCertificate(settings.devCertDir, settings.DNS_FILTER_DOMAIN);
  const dot = await startDotServer({ resolver, tls: cert, filterDomain: DOMAIN, port: 0, host: "127.0.0.1", idleTimeoutMs: 1_000 });
  // DoH on one port: HTTP/1.1 through Express (the handler mounted as the web server will mount it), HTTP/2 (kdig) directly.
  const doh = createDohHandler({ resolver });
  const app = express();
  app.all("/dns-query/:filterId", doh);
  const web = http2.createSecureServer({ cert: cert.cert, key: cert.key, allowHTTP1: true }, (req, res) => {
    if (req.httpVersionMajor === 1) return app(req as never, res as never);
    const id = /^\/dns-query\/([^/?]+)(\?|$)/.exec(req.url)?.[1];
    if (!id) return res.writeHead(404).end();
    doh(Object.assign(req, { params: { filterId: id } }), res);
  });
  await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
  let dohConnections = 0;
  web.on("secureConnection", () => dohConnections++);
  const udp = await startLoopbackUdpServer({ resolver, filterId: "kid1", port: 0 });
  return {
    upstream,
    cert,
    resolver,
    dotPort: dot.port,
    dohPort: (web.address() as AddressInfo).port,
    udpPort: udp.port,
    /** TLS connections the DoH server accepted so far. */
    dohConnections: () => dohConnections,
    async close() {
      await Promise.all([dot.close(), udp.close(), new Promise((r) => web.close(r)), upstream.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
export type FilterServers = Awaited<ReturnType<typeof startFilterServers>>;
