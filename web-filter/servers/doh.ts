import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { MAX_QUERY_BYTES } from "../resolver/message";
import type { Resolver } from "../resolver/resolver";

const DNS_MESSAGE = "application/dns-message";

/**
 * What Express passes a handler mounted at `/dns-query/:filterId`, or node:http/node:http2 with `params` set (DoH
 * clients such as kdig speak HTTP/2 only; Express 4 does not, so an HTTP/2 front end calls the handler directly).
 */
type Request = (IncomingMessage | Http2ServerRequest) & { params?: Record<string, string | undefined> };
type Response = Pick<ServerResponse | Http2ServerResponse, "headersSent" | "setHeader" | "destroy"> & {
  writeHead(status: number, headers: Record<string, string | number>): unknown;
  end(): unknown;
  end(body: Buffer | string): unknown;
};

/**
 * DNS-over-HTTPS (RFC 8484) for `/dns-query/:filterId`: GET with `?dns=<base64url>` and POST with an
 * `application/dns-message` body, both answered with `application/dns-message` and a Cache-Control max-age of the
 * answer's smallest TTL (RFC 8484 §5.1). An unknown filter id is 404 whatever was sent; a query over the size limit
 * 413; what is not a DNS query 400; other methods 405.
 */
export function createDohHandler(opts: { resolver: Resolver }) {
  return (req: Request, res: Response): void => {
    void handle(opts.resolver, req, res).catch(() => {
      if (!res.headersSent) send(res, 500);
      else res.destroy();
    });
  };
}

async function handle(resolver: Resolver, req: Request, res: Response): Promise<void> {
  const filterId = req.params?.filterId ?? "";
  let query: Buffer | number;
  if (req.method === "GET" || req.method === "HEAD") query = fromGet(req);
  else if (req.method === "POST") query = await fromPost(req);
  else {
    res.setHeader("allow", "GET, POST");
    return send(res, 405);
  }
  if (typeof query === "number") {
    // Still a 404 for an unknown id: the status must not tell which ids exist from a request's shape.
    return send(res, (await resolver.knows(filterId)) ? query : 404);
  }
  const answered = await resolver.answer(filterId, query);
  if (answered.kind === "unknown-filter") return send(res, 404);
  if (answered.kind === "not-dns") return send(res, 400);
  res.writeHead(200, {
    "content-type": DNS_MESSAGE,
    "content-length": answered.message.length,
    "cache-control": `max-age=${answered.ttl}`,
  });
  if (req.method === "HEAD") res.end();
  else res.end(answered.message);
}

/** The query of a GET (`dns`, base64url without padding), or the status to answer. */
function fromGet(req: Request): Buffer | number {
  const dns = new URL(req.url ?? "/", "http://x").searchParams.get("dns");
  if (!dns || !/^[A-Za-z0-9_-]+$/.test(dns)) return 400;
  if (dns.length > Math.ceil((MAX_QUERY_BYTES * 4) / 3)) return 414;
  return Buffer.from(dns, "base64url");
}

/** The body of a POST, read up to the size limit, or the status to answer. */
async function fromPost(req: Request): Promise<Buffer | number> {
  if ((req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase() !== DNS_MESSAGE) return 415;
  if (Number(req.headers["content-length"] ?? 0) > MAX_QUERY_BYTES) return 413;
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_QUERY_BYTES) return 413;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function send(res: Response, status: number): void {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(status === 404 ? "Not found\n" : `${status}\n`);
}
