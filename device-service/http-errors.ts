import type { ErrorRequestHandler, RequestHandler, Router } from "express";
import { isDatabaseUnavailable } from "../db/unavailable";

/** The kids app and phones speak JSON: every /device-api answer is JSON, errors included. */
export const DEVICE_API_BODY_LIMIT = "64kb";

/** A body whose declared length is over `limit` bytes is refused before it is read (413, JSON). */
export function refuseDeclaredOver(limit: number, message: string): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.get("Content-Length") ?? Number.NaN);
    if (!(Number.isFinite(declared) && declared > limit)) return next();
    res.set("Connection", "close");
    res.status(413).json({ error: { message, code: -32600, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } }, respones_msg: message });
  };
}

/** Unknown /device-api paths and every error (bad JSON, too large, a bug) as JSON with a plain message. */
export function jsonErrors(api: Router, log: (level: "error", msg: string, extra?: Record<string, unknown>) => void): void {
  api.use((_req, res) => {
    res.status(404).json({ respones_msg: "There is nothing at this address." });
  });
  const onError: ErrorRequestHandler = (err: { type?: string; status?: number; message?: string }, req, res, next) => {
    if (res.headersSent) return next(err);
    // A database outage goes on to the outage handler: 503 with its plain message (device-service/outage.ts).
    if (isDatabaseUnavailable(err)) return next(err);
    if (err.type === "entity.too.large") return void res.status(413).json({ respones_msg: "The request is too large." });
    if (err.type === "entity.parse.failed") return void res.status(400).json({ respones_msg: "The request is not valid JSON." });
    if (err.status && err.status >= 400 && err.status < 500)
      return void res.status(err.status).json({ respones_msg: "The request could not be read." });
    log("error", "device-api error", { path: req.path, error: err.message ?? String(err) });
    res.status(500).json({ respones_msg: "Something went wrong. Please try again." });
  };
  api.use(onError);
}
