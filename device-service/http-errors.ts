import type { IncomingMessage } from "node:http";
import type { ErrorRequestHandler, RequestHandler, Router } from "express";
import { isDatabaseUnavailable } from "../db/unavailable";

/** The kids app and phones speak JSON: every /device-api answer is JSON, errors included. */
export const DEVICE_API_BODY_LIMIT = 64 * 1024;
export const TOO_LARGE_JSON_MESSAGE = "The request is too large.";
export const NOT_JSON_MESSAGE = "The request is not valid JSON.";

/**
 * A body refused for its size is still read, up to this many more bytes, and thrown away before the answer: a client
 * that sends its whole body before it reads (curl, node:http, the kids app) would otherwise meet a closed connection
 * (EPIPE, ECONNRESET) and never see the 413. Past this bound (or DISCARD_MS) the connection is cut after the answer.
 */
export const DISCARD_LIMIT_BYTES = 8 * 1024 * 1024;
/** How long a refused body is read and thrown away at most. */
export const DISCARD_MS = 10_000;

/**
 * Reads and discards the rest of a refused request's body (at most DISCARD_LIMIT_BYTES or DISCARD_MS), then calls
 * `answer` once: the answer should say `Connection: close`. A body declared larger than the bound is not waited for.
 */
export function discardThen(req: IncomingMessage, answer: () => void, o: { maxBytes?: number; maxMs?: number } = {}): void {
  const maxBytes = o.maxBytes ?? DISCARD_LIMIT_BYTES;
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (req.complete || req.readableEnded || (Number.isFinite(declared) && declared > maxBytes)) return answer();
  let seen = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.off("data", onData);
    req.off("end", finish);
    req.off("error", finish);
    req.off("close", finish);
    answer();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) {
      req.pause();
      finish();
    }
  };
  const timer = setTimeout(finish, o.maxMs ?? DISCARD_MS);
  timer.unref();
  req.on("data", onData);
  req.once("end", finish);
  req.once("error", finish);
  req.once("close", finish);
  req.resume();
}

function tooLarge(res: Parameters<RequestHandler>[1], body: unknown): void {
  if (res.headersSent) return;
  res.set("Connection", "close");
  res.status(413).json(body);
}
const deviceApiTooLarge = { respones_msg: TOO_LARGE_JSON_MESSAGE };

/** A body whose declared length is over `limit` bytes is refused before it is kept (413, JSON), once read off (above). */
export function refuseDeclaredOver(limit: number, message: string): RequestHandler {
  return (req, res, next) => {
    const declared = Number(req.get("Content-Length") ?? Number.NaN);
    if (!(Number.isFinite(declared) && declared > limit)) return next();
    discardThen(req, () =>
      tooLarge(res, { error: { message, code: -32600, data: { code: "PAYLOAD_TOO_LARGE", httpStatus: 413 } }, respones_msg: message }),
    );
  };
}

/**
 * express.json for /device-api, bounded: a JSON body of at most `limit` bytes is parsed into req.body ({} for any other
 * request); a larger one, declared or streamed, is read off up to the discard bound and answered 413 (JSON), the
 * connection then closed; unparsable JSON is a 400. Nothing past `limit` is kept in memory.
 */
export function boundedJson(limit: number): RequestHandler {
  return (req, res, next) => {
    req.body = {};
    const type = (req.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (req.method === "GET" || req.method === "HEAD" || type !== "application/json") return next();
    const declared = Number(req.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) return discardThen(req, () => tooLarge(res, deviceApiTooLarge));
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        stop();
        chunks.length = 0;
        discardThen(req, () => tooLarge(res, deviceApiTooLarge));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      const text = Buffer.concat(chunks, size).toString("utf8");
      if (!text.trim()) return next();
      try {
        req.body = JSON.parse(text) as unknown;
      } catch {
        res.status(400).json({ respones_msg: NOT_JSON_MESSAGE });
        return;
      }
      next();
    };
    const onError = () => {
      stop();
      if (!res.headersSent) res.status(400).json({ respones_msg: "The request could not be read." });
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
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
    if (err.type === "entity.too.large") return void res.status(413).json({ respones_msg: TOO_LARGE_JSON_MESSAGE });
    if (err.type === "entity.parse.failed") return void res.status(400).json({ respones_msg: NOT_JSON_MESSAGE });
    if (err.status && err.status >= 400 && err.status < 500)
      return void res.status(err.status).json({ respones_msg: "The request could not be read." });
    log("error", "device-api error", { path: req.path, error: err.message ?? String(err) });
    res.status(500).json({ respones_msg: "Something went wrong. Please try again." });
  };
  api.use(onError);
}
