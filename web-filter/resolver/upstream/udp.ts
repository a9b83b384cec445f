import dgram from "node:dgram";
import net from "node:net";
import { UpstreamTimeout, type ExchangeOptions } from "./exchange";

/**
 * One query over UDP from a fresh socket (a random source port per query, RFC 5452), waiting for the reply that
 * matches. The socket is connected to the upstream: the kernel drops datagrams from anyone else, and an upstream with
 * nothing listening fails at once (ICMP port unreachable) instead of after the timeout.
 */
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
    socket.on("message", (message) => {
      if (opts.accept(message)) done(null, message);
    });
    socket.connect(port, host, () =>
      socket.send(query, (err) => {
        if (err) done(err);
      }),
    );
  });
}
