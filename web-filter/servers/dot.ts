import type { AddressInfo } from "node:net";
import tls from "node:tls";
import { throttledLog, type Logger } from "../../core/log";
import { MAX_QUERY_BYTES, refusedFor } from "../resolver/message";
import type { Resolver } from "../resolver/resolver";
import { frame, MessageReader } from "../stream-framing";
import type { TlsPair } from "../dev-cert";

export interface DotServerOptions {
  resolver: Resolver;
  tls: TlsPair;
  /** Phones connect to `<filter id>.<filterDomain>`; the id is the first label of the TLS server name. */
  filterDomain: string;
  port: number;
  host?: string;
  /** A connection without a query for this long is closed (RFC 7766 §6.2.3). */
  idleTimeoutMs?: number;
  /** Queries of one connection answered at the same time; past it the connection is read no further until one is done. */
  maxInFlight?: number;
  maxConnections?: number;
  log?: Logger;
}

export interface RunningServer {
  port: number;
  close(): Promise<void>;
}

/**
 * DNS-over-TLS (RFC 7858): length-prefixed messages over TLS, several per connection, answered as they are resolved
 * (out of order, RFC 7766 §6.2.1.1). The filter id is the first label of the server name the phone sent (SNI); a
 * handshake without one, or with a name outside the filter domain, is closed without an answer, and an unknown id's
 * queries are answered REFUSED. A message that is not DNS, or one over the size limit, closes the connection.
 */
export function startDotServer(opts: DotServerOptions): Promise<RunningServer> {
  const idleTimeoutMs = opts.idleTimeoutMs ?? 30_000;
  const maxInFlight = opts.maxInFlight ?? 32;
  const warn = opts.log && throttledLog(opts.log, "web-filter-dot");
  const suffix = `.${opts.filterDomain.toLowerCase()}`;
  const server = tls.createServer({ cert: opts.tls.cert, key: opts.tls.key, handshakeTimeout: 10_000 });
  server.maxConnections = opts.maxConnections ?? 10_000;
  const sockets = new Set<tls.TLSSocket>();

  server.on("secureConnection", (socket: tls.TLSSocket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const filterId = filterIdOf(socket.servername, suffix);
    if (!filterId) return socket.destroy();
    socket.setTimeout(idleTimeoutMs, () => socket.end());
    const reader = new MessageReader();
    let inFlight = 0;
    // Read on while few queries wait and the client takes its answers: one that sends without reading is not read further.
    const reading = () => inFlight < maxInFlight && !socket.writableNeedDrain;
    socket.on("drain", () => {
      if (reading()) socket.resume();
    });
    socket.on("data", (chunk: Buffer) => {
      let messages: Buffer[];
      try {
        messages = reader.push(chunk, MAX_QUERY_BYTES);
      } catch {
        return socket.destroy();
      }
      for (const message of messages) {
        inFlight++;
        if (!reading()) socket.pause();
        void opts.resolver
          .answer(filterId, message)
          .then((answered) => {
            inFlight--;
            if (socket.destroyed) return;
            if (answered.kind === "answer") socket.write(frame(answered.message));
            else if (answered.kind === "unknown-filter" && message.length >= 12) socket.write(frame(refusedFor(message)));
            else return socket.destroy();
            if (reading()) socket.resume();
            else socket.pause();
          })
          .catch(() => socket.destroy());
      }
    });
  });
  // A failed handshake (no TLS, a bad ClientHello) only closes that connection.
  server.on("tlsClientError", (err) => warn?.("info", "web filter: a DNS-over-TLS handshake failed", { error: err.message }));

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      // After start-up (out of file descriptors, say) the server logs and goes on: it never ends the process.
      server.on("error", (err) => warn?.("error", "web filter: the DNS-over-TLS server failed", { error: err.message }));
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The filter id in a TLS server name: its first label, when the rest is the filter domain. */
export function filterIdOf(servername: string | false | null | undefined, suffix: string): string | null {
  if (!servername) return null;
  const name = servername.toLowerCase();
  if (!name.endsWith(suffix)) return null;
  const id = name.slice(0, -suffix.length);
  return /^[a-z0-9-]{1,63}$/.test(id) ? id : null;
}
