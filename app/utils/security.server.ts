import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";
import type { Env } from "./env.server";

/**
 * Security headers on every response. Scripts run only with this request's nonce; styles allow inline
 * attributes because server-rendered SVG charts carry them.
 */
/** Header through which the client address as Express sees it (req.ip, proxy-aware) reaches Remix. */
export const CLIENT_IP_HEADER = "x-kp-client-ip";

export function securityHeaders(e: Env): RequestHandler {
  return (req, res, next) => {
    // Overwrite whatever the client sent: rate limits key on this, so it must come from Express only.
    req.headers[CLIENT_IP_HEADER] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const nonce = randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https://*.tile.openstreetmap.org",
      "font-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      // The mobile wrapper loads pages as top-level documents; only our own pages may frame us (the map page).
      "frame-ancestors 'self'",
    ].join("; ");
    res.setHeader("Content-Security-Policy", csp);
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
    res.setHeader("Cross-Origin-Resource-Policy", "same-origin");
    if (e.NODE_ENV === "production") res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
    next();
  };
}

/** Paths that legitimately receive cross-site POSTs (Apple's form_post return). */
const CROSS_SITE_POST_PATHS = new Set(["/users/apple-callback"]);

/** Defence in depth beside SameSite=Lax: a state-changing request from another origin is refused. */
export function sameOriginPosts(): RequestHandler {
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return next();
    if (CROSS_SITE_POST_PATHS.has(req.path)) return next();
    const origin = req.get("Origin");
    if (!origin || origin === "null") return next();
    let host: string;
    try {
      host = new URL(origin).host;
    } catch {
      res.status(403).send("Cross-site request refused.");
      return;
    }
    if (host !== req.get("Host") && host !== req.get("X-Forwarded-Host")) {
      res.status(403).send("Cross-site request refused.");
      return;
    }
    next();
  };
}
