import net from "node:net";
import tls from "node:tls";
import { frame, MessageReader } from "../../stream-framing";
import { UpstreamTimeout, type ExchangeOptions } from "./exchange";

export interface StreamTarget {
  host: string;
  port: number;
  /** TLS (tls:// upstreams, RFC 7858) with the name the certificate must carry; absent: plain TCP (a truncated UDP answer's retry). */
  tls?: { servername: string };
}

/** One query over a new TCP or TLS connection: the length-prefixed message out, the matching reply back, then closed. */
export function exchangeStream(target: StreamTarget, query: Buffer, opts: ExchangeOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = target.tls
      ? tls.connect({
          host: target.host,
          port: target.port,
          // SNI carries host names only; the certificate is still checked against the servername.
          servername: net.isIP(target.tls.servername) ? undefined : target.tls.servername,
          checkServerIdentity: (_host, cert) => tls.checkServerIdentity(target.tls!.servername, cert),
          ca: opts.ca ? [...tls.rootCertificates, opts.ca.toString()] : undefined,
        })
      : net.connect({ host: target.host, port: target.port });
    const reader = new MessageReader();
    const done = (err: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(answer!);
    };
    const timer = setTimeout(() => done(new UpstreamTimeout()), opts.timeoutMs);
    socket.on("error", (err) => done(err));
    socket.on("close", () => done(new Error("The upstream resolver closed the connection before answering.")));
    socket.once(target.tls ? "secureConnect" : "connect", () => socket.write(frame(query)));
    socket.on("data", (chunk: Buffer) => {
      try {
        const answer = reader.push(chunk).find((m) => opts.accept(m));
        if (answer) done(null, answer);
      } catch (err) {
        done(err as Error);
      }
    });
  });
}
