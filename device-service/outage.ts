import { createRequire } from "node:module";
import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { sql } from "kysely";
import { throttledLog, type Logger } from "../core/log";
import type { DB } from "../db/index";
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../db/unavailable";

/**
 * A database outage (restart, failover, network) answers 503 "briefly unavailable" on every HTTP server of the
 * project (server/web.ts and the device service's own process), and the server recovers by itself when the
 * database is back (the pool connects anew on the next query):
 * - Express handlers (page cache, /events, /device-api, /trpc context): outageErrors() answers the page, or
 *   JSON for the APIs; every other error goes on to Express as before;
 * - /healthz: healthz(db) says 503 while the database does not answer.
 * Remix loaders and actions get theirs from app/utils/outage.server.ts (withOutageResponses).
 */

const API_PREFIXES = ["/trpc", "/device-api", "/events", "/admin/queues/api"];

/**
 * One line per outage, not one per request: at most one every 10 s per process (the pages' and the APIs' handlers
 * share the logger's budget, core/log.ts throttledLog), with how many requests were answered 503 meanwhile.
 */
export function outageLogger(log: Logger) {
  const report = throttledLog(log, "database unavailable");
  return (where: string, err: unknown) => {
    report("warn", "database unavailable", { where, error: err instanceof Error ? err.message : String(err) });
  };
}

const wantsJson = (req: Request) => API_PREFIXES.some((p) => req.path.startsWith(p)) || !req.accepts("html");

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Briefly unavailable · Kids Portal</title></head>
<body><main><h1>Briefly unavailable</h1><p>${DATABASE_UNAVAILABLE_MESSAGE}</p><p><a href="">Try again</a></p></main></body></html>
`;

/** Express error handler, mounted last: database outages answer 503; anything else goes on unchanged. */
export function outageErrors(log: Logger): ErrorRequestHandler {
  const report = outageLogger(log);
  return (err, req, res, next) => {
    if (!isDatabaseUnavailable(err) || res.headersSent) return next(err);
    report(req.path, err);
    res.status(503).set("Retry-After", String(RETRY_AFTER_SECONDS)).set("Cache-Control", "no-store");
    if (wantsJson(req)) res.json({ respones_msg: DATABASE_UNAVAILABLE_MESSAGE });
    else res.type("html").send(PAGE);
  };
}

/** GET /healthz: 200 {ok: true} when the database answers, 503 {ok: false, database: "unreachable"} otherwise. */
export function healthz(db: DB, extra: () => Record<string, unknown> = () => ({})): RequestHandler {
  return (_req, res) => {
    sql`select 1`.execute(db).then(
      () => res.json({ ok: true, ...extra() }),
      () =>
        res
          .status(503)
          .set("Retry-After", String(RETRY_AFTER_SECONDS))
          .json({ ok: false, database: "unreachable", ...extra() }),
    );
  };
}

let patched = false;

/**
 * Express 4 ignores the promise an async handler returns: a rejection (a query failing in /events or in the
 * kids app's login) was an unhandled rejection, and Node exits on those. This hands it to next(err) instead,
 * as Express 5 does, so the error handlers above answer it. Idempotent; both servers call it at start.
 */
export function forwardAsyncErrors(): void {
  if (patched) return;
  patched = true;
  const require = createRequire(import.meta.url);
  type Next = (err?: unknown) => void;
  type Handler = (req: unknown, res: unknown, next: Next) => unknown;
  const Layer = require("express/lib/router/layer.js") as {
    prototype: { handle: Handler; handle_request: (req: unknown, res: unknown, next: Next) => void };
  };
  Layer.prototype.handle_request = function handle(req, res, next) {
    const fn = this.handle;
    if (fn.length > 3) return next(); // an error handler: not for a request without an error
    try {
      const ret = fn(req, res, next);
      if (ret && typeof (ret as Promise<unknown>).then === "function")
        (ret as Promise<unknown>).then(undefined, (err: unknown) => next(err ?? new Error("handler rejected")));
    } catch (err) {
      next(err);
    }
  };
}
