import express, { type Request as ExpressRequest, type Response as ExpressResponse, type Router } from "express";
import type { AppLoadContext } from "@remix-run/node";
import { boundedJson } from "#device-service/http-errors";
import { isDatabaseUnavailable } from "#db/unavailable";
import { DATABASE_UNAVAILABLE_MESSAGE } from "#db/unavailable";
import type { AppServices } from "~/load-context";
import { CLIENT_IP_HEADER } from "~/utils/security.server";
import { authenticate, CallLimiter, limitKey } from "./auth.server";
import type { ApiCall, CallContext, Credential } from "./define";
import { ApiError, errorReply, MESSAGES, type Envelope } from "./envelope";
import { API_CALLS } from "./calls";
import { openApiDocument } from "./openapi";
import { docsPage } from "./docs-page";

/** Where the API answers, and its request bodies' bound. */
export const API_BASE = "/api/v1";
export const API_BODY_LIMIT = 64 * 1024;

export interface ApiRouterOptions {
  /** Calls per token per minute (tests lower it). */
  callsPerMinute?: number;
}

/**
 * /api/v1 (docs/api.md): every call of the spec's §7 as JSON, each a thin adapter over what the pages use (their
 * guards, the device service's procedures, the same queries and rules). Mounted in server/web.ts before Remix and
 * before the same-origin check of form posts: a call is authorised by its bearer token alone, never by a cookie.
 */
export function apiRouter(services: AppServices, o: ApiRouterOptions = {}): Router {
  const router = express.Router({ caseSensitive: true, strict: false });
  const limiter = new CallLimiter(o.callsPerMinute);
  let doc: unknown;

  router.get("/openapi.json", (_req, res) => {
    doc ??= openApiDocument();
    res.set("Cache-Control", "no-cache").json(doc);
  });

  // JSON only: a body of any other type is refused before it is read; a JSON body is bounded (413) and parsed (400).
  router.use((req, res, next) => {
    if (req.method !== "POST") return next();
    const type = (req.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    const declared = Number(req.get("Content-Length") ?? "0");
    if (type !== "application/json" && (declared > 0 || req.get("Transfer-Encoding"))) {
      res.status(415).json({ respones_msg: MESSAGES.notJson } satisfies Envelope);
      return;
    }
    next();
  });
  router.use(boundedJson(API_BODY_LIMIT));

  const byPath = new Map<string, ApiCall[]>();
  for (const call of API_CALLS) byPath.set(call.path, [...(byPath.get(call.path) ?? []), call]);
  for (const [path, calls] of byPath) {
    for (const call of calls) router[call.method](path, (req, res) => void run(services, limiter, call, req, res));
    router.all(path, (_req, res) => {
      res
        .status(405)
        .set("Allow", calls.map((c) => c.method.toUpperCase()).join(", "))
        .json({ respones_msg: MESSAGES.method } satisfies Envelope);
    });
  }
  router.use((_req, res) => {
    res.status(404).json({ respones_msg: MESSAGES.notFound } satisfies Envelope);
  });
  return router;
}

/** GET /api/docs: the reference, rendered from the same document (no script, no CDN). */
export function apiDocsHandler() {
  let html: string | undefined;
  return (_req: ExpressRequest, res: ExpressResponse) => {
    html ??= docsPage(openApiDocument() as unknown as Parameters<typeof docsPage>[0]);
    res.set("Cache-Control", "no-cache").type("html").send(html);
  };
}

async function run(services: AppServices, limiter: CallLimiter, call: ApiCall, req: ExpressRequest, res: ExpressResponse): Promise<void> {
  res.set("Cache-Control", "no-store");
  try {
    let parent: CallContext["parent"] = null;
    let credential: Credential | null = null;
    if (call.auth !== "none") {
      ({ parent, credential } = await authenticate(services, req));
      const limit = limiter.allow(limitKey(credential));
      res.set("RateLimit-Limit", String(limiter["perMinute"]));
      res.set("RateLimit-Remaining", String(limit.remaining));
      res.set("RateLimit-Reset", String(limit.resetSeconds));
      if (!limit.ok) {
        res.set("Retry-After", String(limit.resetSeconds));
        throw new ApiError(429, MESSAGES.rateLimited);
      }
      if (call.changes && credential.kind === "token" && credential.scope === "read") throw new ApiError(403, MESSAGES.readScope);
      if (call.auth === "operator" && parent.role !== "operator") throw new ApiError(403, MESSAGES.operatorsOnly);
    }
    if (call.method === "post" && (req.body === null || typeof req.body !== "object" || Array.isArray(req.body)))
      throw new ApiError(400, "The body must be a JSON object.");
    if (call.headers) call.headers.parse(req.headers);
    const input = await call.input.parseAsync(call.method === "get" ? { ...req.query } : req.body);
    const ctx = context(services, req, parent, credential);
    const reply = await call.handle(ctx, input);
    res.status(200).json(reply);
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      res
        .status(503)
        .set("Retry-After", "5")
        .json({ respones_msg: DATABASE_UNAVAILABLE_MESSAGE } satisfies Envelope);
      return;
    }
    const { status, body, internal } = errorReply(err);
    // A call made without a token has no token to be logged out of (a wrong password is not a dead session).
    if (call.auth === "none") delete body.is_logout;
    if (err instanceof Response) body.respones_msg = (await err.text().catch(() => "")) || "This was refused.";
    if (internal)
      services.log("error", "api call failed", {
        call: `${call.method.toUpperCase()} ${call.path}`,
        error: err instanceof Error ? err.message : String(err),
      });
    if (res.headersSent) return;
    res.status(status).json(body);
  }
}

function context(services: AppServices, req: ExpressRequest, parent: CallContext["parent"], credential: Credential | null): CallContext {
  return {
    services,
    req,
    parent,
    credential,
    device: () => services.device(parent ? { id: parent.id, email: parent.email, role: parent.role } : null),
    guardArgs: () => {
      const url = new URL(`http://api.local${req.originalUrl}`);
      const request = new Request(url, { method: "GET", headers: { [CLIENT_IP_HEADER]: req.ip ?? "unknown" } });
      const token = credential?.kind === "session" ? credential.token : "";
      const ctx = { services, cspNonce: "", preloaded: { parent: parent ? { parent, token } : null } } as AppLoadContext;
      return { request, context: ctx };
    },
  };
}
