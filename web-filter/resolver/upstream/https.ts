import https from "node:https";
import tls from "node:tls";
import { UpstreamTimeout, type ExchangeOptions } from "./exchange";

const DNS_MESSAGE = "application/dns-message";

/** Kept-alive connections per set of trusted authorities: a miss after the first does not pay a TLS handshake. */
const agents = new Map<string, https.Agent>();
function agentFor(ca: string | Buffer | undefined): https.Agent {
  const key = ca?.toString() ?? "";
  let agent = agents.get(key);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, timeout: 30_000, ca: ca ? [...tls.rootCertificates, key] : undefined });
    agents.set(key, agent);
  }
  return agent;
}

/**
 * One query over DNS-over-HTTPS (RFC 8484 POST) on a kept-alive connection; the reply is read up to the 65,535 bytes
 * a DNS message can have. A failed or late exchange closes its connection.
 */
export function exchangeHttps(url: URL, query: Buffer, opts: ExchangeOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, {
      method: "POST",
      headers: { "content-type": DNS_MESSAGE, accept: DNS_MESSAGE, "content-length": query.length },
      agent: agentFor(opts.ca),
    });
    const done = (err: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      if (err) {
        request.destroy();
        reject(err);
      } else resolve(answer!);
    };
    const timer = setTimeout(() => done(new UpstreamTimeout()), opts.timeoutMs);
    request.on("error", (err) => done(err));
    request.on("response", (response) => {
      if (response.statusCode !== 200 || response.headers["content-type"] !== DNS_MESSAGE) {
        response.resume();
        return done(new Error(`The upstream resolver answered HTTP ${response.statusCode}.`));
      }
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > 65_535) return done(new Error("The upstream resolver's answer is over 65,535 bytes."));
        chunks.push(chunk);
      });
      response.on("end", () => {
        const answer = Buffer.concat(chunks);
        if (opts.accept(answer)) done(null, answer);
        else done(new Error("The upstream resolver's answer does not match the question."));
      });
      response.on("error", (err) => done(err));
    });
    request.end(query);
  });
}
