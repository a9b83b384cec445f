/**
 * An HTTP client in its own process, driven by the bench over IPC: what a parent's browser is to the server, a
 * client whose work (parsing, gunzip, garbage) does not run on the server's event loop or count in its heap.
 *
 * `get` times one request from its start to the body's last byte on one kept-alive connection, then decodes the
 * body (gzip) outside the timed span for the bench's check. `throughput` runs `concurrency` loops of kept-alive
 * requests for `seconds` and only counts the bodies' bytes, so the client costs little beside the server.
 * Run as a script, this file is that child; `openRemoteClient()` starts it.
 */
import { fork, type ChildProcess } from "node:child_process";
import http from "node:http";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

export interface RemoteGet {
  ms: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface RemoteClient {
  get(url: string, headers: Record<string, string>): Promise<RemoteGet>;
  /** Requests per second over `seconds` with `concurrency` loops. */
  throughput(url: string, headers: Record<string, string>, seconds: number, concurrency: number): Promise<number>;
  close(): Promise<void>;
}

type Request =
  | { id: number; op: "get"; url: string; headers: Record<string, string> }
  | { id: number; op: "throughput"; url: string; headers: Record<string, string>; seconds: number; concurrency: number };
type Reply = { id: number; error?: string; get?: RemoteGet; rps?: number };

export async function openRemoteClient(): Promise<RemoteClient> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--remote-client"], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting = new Map<number, { resolve: (r: Reply) => void; reject: (e: Error) => void }>();
  let next = 0;
  const failAll = (err: Error) => {
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  child.on("message", (m: Reply) => {
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (!w) return;
    if (m.error) w.reject(new Error(m.error));
    else w.resolve(m);
  });
  child.on("error", failAll);
  child.on("exit", (code) => failAll(new Error(`the bench's client process ended (exit ${code})`)));
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", () => reject(new Error("the bench's client process did not start")));
  });
  const ask = (req: Request extends infer R ? (R extends { id: number } ? Omit<R, "id"> : never) : never) =>
    new Promise<Reply>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.send({ ...req, id });
    });
  return {
    get: async (url, headers) => (await ask({ op: "get", url, headers })).get!,
    throughput: async (url, headers, seconds, concurrency) => (await ask({ op: "throughput", url, headers, seconds, concurrency })).rps!,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

// ---- the child ----

function request(agent: http.Agent, url: string, headers: Record<string, string>, keep: boolean) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; chunks: Buffer[] }>((resolve, reject) => {
    const req = http.get(url, { agent, headers: { "accept-encoding": "gzip", ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => {
        if (keep) chunks.push(c);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, chunks }));
      res.on("error", reject);
    });
    req.on("error", reject);
  });
}

async function serve(): Promise<void> {
  const single = new http.Agent({ keepAlive: true, maxSockets: 1 });
  process.on("message", async (m: Request) => {
    try {
      if (m.op === "get") {
        const t = performance.now();
        const r = await request(single, m.url, m.headers, true);
        const ms = performance.now() - t;
        const raw = Buffer.concat(r.chunks);
        const body = (r.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw).toString("utf8");
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(r.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(", ") : v;
        process.send!({ id: m.id, get: { ms, status: r.status, headers, body } } satisfies Reply);
      } else {
        const agent = new http.Agent({ keepAlive: true, maxSockets: m.concurrency });
        const until = performance.now() + m.seconds * 1000;
        let done = 0;
        await Promise.all(
          Array.from({ length: m.concurrency }, async () => {
            while (performance.now() < until) {
              const r = await request(agent, m.url, m.headers, false);
              if (r.status !== 200) throw new Error(`${m.url}: ${r.status}`);
              done++;
            }
          }),
        );
        agent.destroy();
        process.send!({ id: m.id, rps: done / m.seconds } satisfies Reply);
      }
    } catch (err) {
      process.send!({ id: m.id, error: err instanceof Error ? err.message : String(err) } satisfies Reply);
    }
  });
  process.send!({ id: 0 });
}

if (process.argv.includes("--remote-client")) await serve();
