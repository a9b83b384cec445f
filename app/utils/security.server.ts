import { randomFillSync } from "node:crypto";
import type { RequestHandler } from "express";
import type { Env } from "#core/env.server";

/**
 * Security headers on every response. Scripts run only with this request's nonce; styles allow inline
 * attributes because server-rendered SVG charts carry them.
 */
/** Header through which the client address as Express sees it (req.ip, proxy-aware) reaches Remix. */
export const CLIENT_IP_HEADER = "x-kp-client-ip";

/** The origin real store icons load from (CATALOG_ICON_BASE_URL), allowed in img-src; null when icons are drawn locally. */
export function iconOrigin(base: string): string | null {
  if (!base) return null;
  try {
    return new URL(base.replace(/\{package\}/g, "x")).origin;
  } catch {
    return null;
  }
}

/**
 * A fresh nonce: 16 bytes from the system's CSPRNG, base64. The bytes are drawn 4 KiB at a time and each 16 is used
 * once: `randomBytes(16)` a request was 5 % of a cached dashboard view's CPU (a native job for 16 bytes).
 */
export function freshNonce(): string {
  if (noncePoolAt === NONCE_POOL.length) {
    randomFillSync(NONCE_POOL);
    noncePoolAt = 0;
  }
  const nonce = NONCE_POOL.toString("base64", noncePoolAt, noncePoolAt + 16);
  noncePoolAt += 16;
  return nonce;
}

const NONCE_POOL = Buffer.alloc(4096);
let noncePoolAt = NONCE_POOL.length;

/**
 * Pages whose address carries a secret from a mail (reset and set-password links, the unsubscribe link, the
 * verification and one-time sign-in links on /login) or that hand one over (the wrapper hand-off): nothing of their
 * address may leave in a Referer, whatever the page links to or loads.
 */
const LINK_PAGES = new Set(["/reset-password", "/password/set", "/reports/unsubscribe", "/alerts/unsubscribe", "/users/handoff"]);
const LINK_PARAMS = ["iv", "encryptedData", "token"];

/** The Referrer-Policy of a response: `no-referrer` on e-mail-link pages, else `strict-origin-when-cross-origin`. */
export function referrerPolicy(path: string, search: string): string {
  const page = path.endsWith(".data") ? path.slice(0, -5) : path; // single-fetch data requests of the same page
  if (LINK_PAGES.has(page)) return "no-referrer";
  if (page === "/login" || page === "/" || page === "/_root") {
    const q = new URLSearchParams(search);
    if (LINK_PARAMS.some((p) => q.has(p))) return "no-referrer";
  }
  return "strict-origin-when-cross-origin";
}

export function securityHeaders(e: Env): RequestHandler {
  const icons = iconOrigin(e.CATALOG_ICON_BASE_URL);
  return (req, res, next) => {
    // Overwrite whatever the client sent: rate limits key on this, so it must come from Express only.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    // The same for the forwarded host: what Remix's own action check, the request's URL and the Apple button read
    // is the host a trusted proxy set, or nothing without TRUST_PROXY.
    const host = forwardedHost(req.get?.("X-Forwarded-Host"), e.TRUST_PROXY);
    if (host) req.headers["x-forwarded-host"] = host;
    else delete req.headers["x-forwarded-host"];
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    // Stripe's script and frames, on the card page only and only in Stripe mode (the Payment Element).
    const stripe = e.PAYMENTS_PROVIDER === "stripe" && req.path === "/payment-methods";
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'${stripe ? " https://js.stripe.com" : ""}`,
      "style-src 'self' 'unsafe-inline'",
      `img-src 'self' data: blob: https://*.tile.openstreetmap.org${icons ? ` ${icons}` : ""}`,
      "font-src 'self'",
      stripe ? "connect-src 'self' https://api.stripe.com" : "connect-src 'self'",
      ...(stripe ? ["frame-src https://js.stripe.com https://hooks.stripe.com"] : []),
      "object-src 'none'",
      "base-uri 'none'",
      // The mobile wrapper loads pages as top-level documents; only our own pages may frame us (the map page).
      "frame-ancestors 'self'",
    ].join("; ");
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    const url = req.originalUrl ?? req.url ?? req.path;
    const query = url.indexOf("?");
    res.setHeader("Referrer-Policy", referrerPolicy(req.path, query === -1 ? "" : url.slice(query)));
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (e.NODE_ENV === "production") res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    next();
  };
}

/**
 * The policy of a response whose page is served from the page cache (app/utils/page-cache.server.ts): its inline
 * scripts are authorised by their sha256 hashes (`'sha256-…'`) in place of this response's nonce, which the page
 * no longer carries. Nothing else in the policy changes; never 'unsafe-inline'. Null when `csp` does not hold the
 * nonce (not a policy this module wrote for this response).
 */
export function scriptsByHash(csp: string, nonce: string, hashes: string[]): string | null {
  const source = ` 'nonce-${nonce}'`;
  if (!nonce || !csp.includes(source)) return null;
  let sources = hashSources.get(hashes);
  if (sources === undefined) {
    sources = hashes.some((h) => !/^'sha256-[A-Za-z0-9+/]+=*'$/.test(h)) ? null : hashes.map((h) => ` ${h}`).join("");
    hashSources.set(hashes, sources);
  }
  return sources === null ? null : csp.replace(source, sources);
}

/** A stored page's hashes are checked and joined once, not on every response that serves it (they never change). */
const hashSources = new WeakMap<string[], string | null>();

/** Paths that legitimately receive cross-site POSTs (Apple's form_post return). */
const CROSS_SITE_POST_PATHS = new Set(["/users/apple-callback"]);

/**
 * The host a proxy says the client asked for: `X-Forwarded-Host` only when `TRUST_PROXY` says proxies are there
 * (else anyone could send it), and then the value the outermost trusted proxy set (a proxy that appends adds its
 * own at the end; what a client sent before it stays to the left and is not believed).
 */
export function forwardedHost(header: string | undefined, trustProxy: number): string | null {
  if (trustProxy <= 0 || !header) return null;
  const hops = header
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
  return hops.length ? hops[Math.max(0, hops.length - trustProxy)]! : null;
}

/**
 * Defence in depth beside SameSite=Lax: a state-changing request from another origin is refused. The origin must
 * be the request's own `Host`, or (behind `TRUST_PROXY` hops) the host the proxy forwarded.
 */
export function sameOriginPosts(o: { trustProxy: number }): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (CROSS_SITE_POST_PATHS.has(req.path)) return next();
    const origin = req.get("Origin");
    if (!origin) return next();
    // `Origin: null`: an opaque origin (sandboxed frame, file: page, data: URL), never one of our pages — or one of our
    // e-mail-link pages, whose `Referrer-Policy: no-referrer` makes the browser send null for its own form posts. The
    // browser's Fetch Metadata (which no page can set) tells the two apart: only `same-origin` passes.
    if (origin === "null" && req.get("Sec-Fetch-Site") === "same-origin") {
      // Remix refuses an action whose Origin is not its host, "null" included: this one the browser vouched for.
      delete req.headers.origin;
      return next();
    }
    if (origin === "null") {
      res
        .status(400)
        .type("text/plain")
        .send("This request came from a page we cannot identify, so it was not accepted. Please open Kids Portal and try again.");
      return;
    }
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      res.status(403).send("Cross-site request refused.");
      return;
    }
    if (host !== req.get("Host") && host !== forwardedHost(req.get("X-Forwarded-Host"), o.trustProxy)) {
      res.status(403).send("Cross-site request refused.");
      return;
    }
    next();
  };
}
