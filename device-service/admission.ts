/**
 * A device process's listener that stops taking connections before the process runs out of open files.
 *
 * Device processes share one listening socket (device-service/cluster.ts) and each takes the connections it
 * accepts. A process that took more than its open-file limit allows would fail every accept (EMFILE) and every
 * database or Redis connection it opens; instead, at `max` open connections it closes its copy of the listener
 * (the others keep accepting; with every process full the port refuses, and phones retry with backoff), and
 * listens again once it is down to `resumeAt`. The HTTP server never listens itself: it is handed each socket.
 */
import { readFileSync } from "node:fs";
import net from "node:net";
import type { Server as HttpServer } from "node:http";

/**
 * Connections the kernel holds for us before they are accepted (capped by net.core.somaxconn). Node's default,
 * 511, overflowed when tens of thousands of phones reconnected at once (kill -9 of every process): each dropped
 * handshake is retried by the phone a second or more later, and the fleet took longer to come back.
 */
export const LISTEN_BACKLOG = 4096;

/** Files a process keeps for itself beside its connections: database and Redis pools, logs, modules. */
export const FILE_MARGIN = 512;

/** This process's soft open-file limit (Linux /proc/self/limits), or null where it cannot be read. */
export function openFileLimit(limits = () => readFileSync("/proc/self/limits", "utf8")): number | null {
  try {
    const m = /^Max open files\s+(\d+|unlimited)\s+/m.exec(limits());
    return m && m[1] !== "unlimited" ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface AdmissionOptions {
  port: number;
  host?: string;
  /** Open connections at which this process stops accepting (default: open-file limit − FILE_MARGIN). */
  max?: number | null;
  /** Open connections at which it accepts again (default: 95 % of max). */
  resumeAt?: number;
  /** The listen backlog (default LISTEN_BACKLOG). */
  backlog?: number;
  log?: (msg: string, extra?: Record<string, unknown>) => void;
}

export interface Admission {
  /** The port listened on (the one asked for, or the one given for port 0). */
  port: number;
  /** Connections open now. */
  open(): number;
  /** Whether the listener is taking connections now. */
  accepting(): boolean;
  close(): Promise<void>;
}

export async function listenWithCap(http: HttpServer, o: AdmissionOptions): Promise<Admission> {
  const limit = openFileLimit();
  const max = o.max === undefined ? (limit === null ? null : Math.max(1, limit - FILE_MARGIN)) : o.max;
  const resumeAt = o.resumeAt ?? (max === null ? 0 : Math.floor(max * 0.95));
  const listener = net.createServer({ pauseOnConnect: false });
  let open = 0;
  let accepting = false;
  let closed = false;
  let port = o.port;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const failed = (err: Error) => reject(err);
      listener.once("error", failed);
      listener.listen({ port, host: o.host, backlog: o.backlog ?? LISTEN_BACKLOG }, () => {
        listener.off("error", failed);
        const addr = listener.address();
        if (typeof addr === "object" && addr) port = addr.port;
        accepting = true;
        resolve();
      });
    });
  const pause = () => {
    accepting = false;
    o.log?.("device process full: not accepting connections", { open, max });
    listener.close();
  };
  const resume = () => {
    if (closed || accepting) return;
    accepting = true;
    listen().then(
      () => o.log?.("device process accepting connections again", { open }),
      (err: unknown) => {
        accepting = false;
        o.log?.("device process could not listen again", { error: err instanceof Error ? err.message : String(err) });
        setTimeout(resume, 1_000).unref();
      },
    );
  };

  listener.on("connection", (socket) => {
    open++;
    socket.once("close", () => {
      open--;
      if (!accepting && max !== null && open <= resumeAt) resume();
    });
    if (accepting && max !== null && open >= max) pause();
    http.emit("connection", socket);
  });
  await listen();
  return {
    get port() {
      return port;
    },
    open: () => open,
    accepting: () => accepting,
    // The listener only: the connections it accepted belong to the HTTP server, which closes them.
    close: async () => {
      closed = true;
      if (accepting) listener.close();
      accepting = false;
    },
  };
}
