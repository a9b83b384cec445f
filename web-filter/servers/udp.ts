import dgram from "node:dgram";
import net from "node:net";
import type { Resolver } from "../resolver/resolver";
import type { RunningServer } from "./dot";

const LOOPBACK = new Set(["127.0.0.1", "::1"]);

/**
 * Plain DNS over UDP for local debugging (`dig @127.0.0.1 -p PORT example.com`), answering for one filter id. It binds
 * to a loopback address only: UDP has no server name to say whose lookup it is, and a resolver on a public address
 * would be an open one (and a reflector for amplification). Datagrams that are not DNS queries are dropped.
 */
export function startLoopbackUdpServer(opts: {
  resolver: Resolver;
  filterId: string;
  port: number;
  host?: string;
}): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host)) throw new Error(`The web filter's plain UDP server listens on loopback only (127.0.0.1 or ::1), not ${host}.`);
  const socket = dgram.createSocket(net.isIPv6(host) ? "udp6" : "udp4");
  socket.on("message", (message, from) => {
    void opts.resolver
      .answer(opts.filterId, message, { udp: true })
      .then((answered) => {
        if (answered.kind === "answer") socket.send(answered.message, from.port, from.address);
      })
      .catch(() => undefined);
  });
  socket.on("error", () => undefined);
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(opts.port, host, () => {
      socket.off("error", reject);
      resolve({ port: socket.address().port, close: () => new Promise((done) => socket.close(() => done())) });
    });
  });
}
