import dgram from "node:dgram";
import net from "node:net";
import { UpstreamTimeout, type ExchangeOptions } from "./exchange";

/** One query over UDP from a fresh socket (a random source port per query, RFC 5452), waiting for the reply that matches. */
export function exchangeUdp(host: string, port: number, query: Buffer, opts: ExchangeOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket(net.isIPv6(host) ? "udp6" : "udp4");
    const done = (err: Error | null, answer?: Buffer) => {
      clearTimeout(timer);
      socket.close();
      if (err) reject(err);
      else resolve(answer!);
    };
    const timer = setTimeout(() => done(new UpstreamTimeout()), opts.timeoutMs);
    socket.on("error", (err) => done(err));
    socket.on("message", (message, from) => {
      if (from.port === port && opts.accept(message)) done(null, message);
    });
    socket.send(query, port, host, (err) => {
      if (err) done(err);
    });
  });
}
