import type { IncomingHttpHeaders } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { createRequestHandler as createRemixCore, writeReadableStreamToWritable } from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { MAX_UPLOAD_PICTURE_BYTES } from "#device-service/pictures";
import { readPictureForm } from "./picture-body.server";
import { discardThen } from "#device-service/http-errors";

/**
 * Request bodies for the web pages (Remix actions), bounded before they are buffered: a form post at most
 * 1 MB, the kid-picture form (multipart, a photo of up to 20 MB: `readPictureForm`, issue 52) 20 MB plus room for the other fields and
 * the multipart framing. A declared Content-Length over the limit is refused before one byte is kept; a
 * streamed body is counted and refused as soon as it passes the limit. Either way the rest of the body is read
 * off and thrown away (at most 8 MB more, 10 s: device-service/http-errors.ts discardThen) before the 413, so a
 * client that sends its whole body before reading still reads the answer; then the connection closes. Only form encodings are accepted,
 * and a multipart body must parse: anything else is a 400 with a message, never a 500 from deep inside.
 * /trpc and /device-api have limits of their own (device-service/http.ts).
 */
export const FORM_BODY_LIMIT = 1024 * 1024;
/**
 * How much of a kid-picture form is read at most (issue 52): a photo over 20 MB (up to about 60 MB) is read off and
 * dropped, and the page answers in the form with everything else kept (`readPictureForm`); past this, a 413.
 */
export const PICTURE_READ_LIMIT = 64 * 1024 * 1024;
/** Pages whose form carries the kid's picture. */
const PICTURE_PATHS = new Set(["/kids-device", "/kids-device.data"]);
/** Set on the request Remix gets (never taken from the client): the file fields dropped as too large. */
const DROPPED_HEADER = "x-kp-dropped-files";
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

export const TOO_LARGE_MESSAGE = "This form is too large to send. Please send less (at most 1 MB; a kid's picture at most 20 MB).";
export const UNREADABLE_MESSAGE = "This form could not be read. Please reload the page and try again.";

/** The body read by `boundedFormBodies`, handed to Remix instead of the (already consumed) request stream. */
const BODY = Symbol("kp.body");
/** The file fields `readPictureForm` dropped as too large. */
const DROPPED = Symbol("kp.dropped");
type WithBody = ExpressRequest & { [BODY]?: Buffer | FormData; [DROPPED]?: string[] };

/** A single-fetch data request (`….data`: client-side navigation, revalidation, a form sent in place), not a document. */
export const isSingleFetchData = (req: { path: string }): boolean => req.path.endsWith(".data");

/** A refusal as a short page for a browser's form post, as JSON for everything else (data requests, APIs). */
export function refuse(req: ExpressRequest, res: ExpressResponse, status: number, message: string): void {
  if (res.headersSent) return;
  const browserPage = req.accepts(["html", "json"]) === "html" && !isSingleFetchData(req) && req.query._data === undefined;
  // The rest of an unread body is not worth receiving: the connection ends with this answer.
  res.set("Connection", "close");
  if (browserPage) {
    const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    res
      .status(status)
      .type("html")
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Kids Portal</title></head><body><main><h1>${status === 413 ? "Too large" : "Not sent"}</h1><p>${text}</p><p><a href="javascript:history.back()">Go back</a> · <a href="/">Home</a></p></main></body></html>`,
      );
  } else {
    res.status(status).json({ respones_msg: message });
  }
}

/** The kid-picture form's multipart post is read as it streams, up to PICTURE_READ_LIMIT; any other post: 1 MB. */
function limitFor(req: ExpressRequest): number {
  const type = (req.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  return PICTURE_PATHS.has(req.path) && type === "multipart/form-data" ? PICTURE_READ_LIMIT : FORM_BODY_LIMIT;
}

/** The file fields of a kid-picture form that were over the limit and dropped before the action (readPictureForm). */
export function droppedFiles(request: Request): string[] {
  return (request.headers.get(DROPPED_HEADER) ?? "").split(",").filter(Boolean);
}

/** Reads the body up to `limit` bytes; resolves null (and stops reading) as soon as it passes it. */
function readBounded(req: ExpressRequest, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        done();
        req.pause();
        chunks.length = 0;
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** Express middleware in front of Remix: bounds, reads and checks every form body (see above). */
export function boundedFormBodies(): RequestHandler {
  return (req: WithBody, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const limit = limitFor(req);
    const declared = Number(req.get("Content-Length") ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limit) return discardThen(req, () => refuse(req, res, 413, TOO_LARGE_MESSAGE));
    const hasBody = (Number.isFinite(declared) && declared > 0) || req.get("Transfer-Encoding") !== undefined;
    const type = (req.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (hasBody && !FORM_TYPES.includes(type)) return refuse(req, res, 400, UNREADABLE_MESSAGE);
    if (limit === PICTURE_READ_LIMIT) {
      const limits = { fieldsLimit: FORM_BODY_LIMIT, fileLimit: MAX_UPLOAD_PICTURE_BYTES, totalLimit: PICTURE_READ_LIMIT };
      return void readPictureForm(req, req.get("Content-Type")!, limits).then((read) => {
        if (read === "too-large") return discardThen(req, () => refuse(req, res, 413, TOO_LARGE_MESSAGE));
        if (read === "unreadable") return refuse(req, res, 400, UNREADABLE_MESSAGE);
        req[BODY] = read.form;
        req[DROPPED] = read.dropped;
        next();
      }, next);
    }
    readBounded(req, limit).then(
      async (body) => {
        if (!body) return discardThen(req, () => refuse(req, res, 413, TOO_LARGE_MESSAGE));
        if (type === "multipart/form-data" && !(await multipartParses(body, req.get("Content-Type")!)))
          return refuse(req, res, 400, UNREADABLE_MESSAGE);
        req[BODY] = body;
        next();
      },
      () => refuse(req, res, 400, UNREADABLE_MESSAGE),
    );
  };
}

async function multipartParses(body: Buffer, contentType: string): Promise<boolean> {
  try {
    await new Request("http://localhost/", { method: "POST", headers: { "Content-Type": contentType }, body }).formData();
    return true;
  } catch {
    return false;
  }
}

/**
 * @remix-run/express's handler, except that the request body is the one `boundedFormBodies` already read
 * and checked (the adapter would stream the raw request into Remix, unbounded).
 */
export function createRemixHandler(o: {
  build: ServerBuild;
  mode?: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => Promise<unknown> | unknown;
}): RequestHandler {
  const handle = createRemixCore(o.build, o.mode);
  return async (req: WithBody, res: ExpressResponse, next: NextFunction) => {
    try {
      const [, forwardedPort] = req.get("X-Forwarded-Host")?.split(":") ?? [];
      const [, hostPort] = req.get("host")?.split(":") ?? [];
      const port = Number.parseInt(forwardedPort, 10) || Number.parseInt(hostPort, 10) || "";
      const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
      let controller: AbortController | null = new AbortController();
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const headers = createRemixHeaders(req.headers);
      headers.delete(DROPPED_HEADER);
      if (req[BODY] instanceof FormData) {
        // A form read as it streamed (the picture form): sent on as a new multipart body with its own boundary.
        headers.delete("content-type");
        headers.delete("content-length");
        if (req[DROPPED]?.length) headers.set(DROPPED_HEADER, req[DROPPED].join(","));
      }
      const request = new Request(url.href, {
        method: req.method,
        headers,
        signal: controller.signal,
        ...(hasBody ? { body: req[BODY] ?? Buffer.alloc(0) } : {}),
      });
      res.on("finish", () => (controller = null));
      res.on("close", () => controller?.abort());
      const loadContext = await o.getLoadContext(req, res);
      const response = await handle(request, loadContext as Parameters<typeof handle>[1]);
      await sendRemixResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function createRemixHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(incoming)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const v of values) headers.append(key, v);
    else headers.set(key, values);
  }
  return headers;
}

async function sendRemixResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
