import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { RETRY_AFTER_SECONDS } from "#db/unavailable";
import { throttledLog, type Logger } from "#core/log";
import { NonceProvider } from "./utils/nonce";
import { DocumentMarkupContext } from "./utils/document-markup";

const ABORT_DELAY = 5_000;

/**
 * Documents are rendered whole, then sent as one body. No route streams (no defer, no Suspense), so streaming
 * gained nothing, while React's ~2 KB chunks each went through a web stream, the Express adapter and its own
 * zlib call: sending one buffer cut the compression and stream overhead of a dashboard render by more than half
 * (docs/performance.md).
 *
 * The one thing that waits is single fetch's data script: Remix renders it from a stream (StreamTransfer, under a
 * Suspense boundary), so the render suspends until the data is encoded. That data is read whole first, into the
 * cache StreamTransfer reads from, so nothing suspends and the document renders as one string (`renderToString`):
 * no Node stream, no 2 KB byte views, no turns of the event loop between the render and its data script. A render
 * in which something still suspended (a boundary React had to leave to the browser, `<!--$!-->`) is done again with
 * the streaming renderer, which waits for it, as before (decision 012).
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  const app = (
    <NonceProvider value={nonce}>
      <DocumentMarkupContext.Provider value={loadContext.documentMarkup ?? null}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </DocumentMarkupContext.Provider>
    </NonceProvider>
  );
  if (await readDataWhole(remixContext)) {
    const html = renderToString(app);
    if (!html.includes(LEFT_TO_THE_BROWSER)) {
      // The streaming renderer writes the doctype before a root <html>; renderToString leaves it out.
      const page = lowPriorityModulePreloads(scriptsInsideBody(html.startsWith("<html") ? `<!DOCTYPE html>${html}` : html));
      return respond(Buffer.from(page, "utf8"), responseStatusCode, responseHeaders, loadContext);
    }
    // RemixServer took a reader of the (already read) data stream in that render: the next one gets its own.
    remixContext.serverHandoffStream = readStream();
  }
  return renderStreamed(app, nonce, responseStatusCode, responseHeaders, loadContext);
}

/** React's mark of a Suspense boundary it could not finish on the server (the browser renders it). */
const LEFT_TO_THE_BROWSER = "<!--$!-->";

/**
 * Single fetch's data, read to its end into the cache Remix's StreamTransfer reads (`renderMeta.streamCache`, one
 * entry per chunk, decoded as StreamTransfer decodes them), so its render finds every chunk there and never
 * suspends. A read that fails is kept as StreamTransfer keeps it, and the render throws it the same way. False
 * when there was nothing it could read (no data stream, or one already taken): the streaming renderer then waits.
 */
export async function readDataWhole(context: EntryContext): Promise<boolean> {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta || stream.locked) return false;
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const cache: NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]> = {};
  try {
    for (let i = 0; ; i++) {
      const entry = Object.assign(Promise.resolve(), {} as { result?: { done: boolean; value: string }; error?: unknown });
      cache[i] = entry;
      try {
        const { done, value } = await reader.read();
        entry.result = { done, value: decoder.decode(value, { stream: true }) };
        if (done) break;
      } catch (error) {
        entry.error = error;
        break;
      }
    }
  } finally {
    reader.releaseLock();
  }
  context.renderMeta.streamCache = cache;
  context.serverHandoffStream = readStream();
  return true;
}

/** A data stream already read: RemixServer takes a reader of it for each render, and StreamTransfer reads the cache. */
const readStream = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

/** The streaming render, for a document in which something suspends beyond the data script. */
export function renderStreamed(app: JSX.Element, nonce: string, status: number, headers: Headers, loadContext: AppLoadContext) {
  let responseStatusCode = status;
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        callback();
      },
      final(callback) {
        // Read byte for byte (latin1), never decoded: the edits below look for ASCII only, which UTF-8 never uses
        // inside a multi-byte character. Decoding an 80 KB page with any non-ASCII character in it took ~0.7 ms
        // (V8's slow path) and encoding it back ~0.2 ms; the byte view costs ~0.03 ms both ways.
        const page = Buffer.from(
          lowPriorityModulePreloads(scriptsInsideBody(withoutViewPadding(Buffer.concat(chunks).toString("latin1")))),
          "latin1",
        );
        resolve(respond(page, responseStatusCode, headers, loadContext));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(app, {
      nonce,
      onAllReady() {
        clearTimeout(timer);
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        console.error(error);
      },
    });
    const timer = setTimeout(abort, ABORT_DELAY);
  });
}

function respond(page: Buffer, status: number, headers: Headers, loadContext: AppLoadContext): Response {
  headers.set("Content-Type", "text/html; charset=utf-8");
  if (!headers.has("Cache-Control")) headers.set("Cache-Control", cacheControl(loadContext));
  // The database is briefly unavailable (app/utils/outage.server.ts): say when to try again.
  if (status === 503) headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  // A page-cache miss keeps the page for the next identical request (it refuses non-200 and Set-Cookie) and
  // then answers with the stored form (scripts authorised by hash, gzip when the client takes it).
  const body = loadContext.pageCacheStore?.(page, status, headers) ?? page;
  return new Response(body, { headers, status });
}

/**
 * React 18's Node renderer fills 2 KB views; when a multi-byte character (an en dash, an accent) does not fit at
 * the end of one, it flushes the whole view, unfilled bytes included: NUL characters in the page, which browsers
 * show as boxes and the HTML checker refuses. Our documents never carry a NUL of their own (text is validated and
 * React escapes nothing into one), so they are dropped.
 */
export function withoutViewPadding(html: string): string {
  return html.includes("\u0000") ? html.split("\u0000").join("") : html;
}

/**
 * React writes the streamed data scripts of single fetch after the document it rendered (after </html>), which
 * is invalid HTML: they belong at the end of <body>, where browsers run them the same way.
 */
export function scriptsInsideBody(html: string): string {
  const end = html.lastIndexOf("</html>");
  if (end < 0) return html;
  const tail = html.slice(end + "</html>".length);
  if (!tail.trim()) return html;
  const head = html.slice(0, end);
  const bodyEnd = head.lastIndexOf("</body>");
  if (bodyEnd < 0) return html;
  return `${head.slice(0, bodyEnd)}${tail}${head.slice(bodyEnd)}</html>`;
}

/**
 * Remix preloads every module of the page (`<link rel="modulepreload">`, some 45 on the dashboard) at high
 * priority, beside the stylesheets the first paint waits for: on a phone's connection (HTTP/1.1, six connections)
 * they held the page's first paint back (Lighthouse mobile: first contentful paint 3.3 s). Every page works
 * without JavaScript, so no script is needed to show it: the modules are fetched at low priority, after what the
 * first paint needs, and hydrate the page once they are in (issue 53, docs/performance.md "Lighthouse (mobile)").
 */
export function lowPriorityModulePreloads(html: string): string {
  return html.replaceAll('<link rel="modulepreload" ', '<link rel="modulepreload" fetchpriority="low" ');
}

/**
 * Guarded pages (a loader called requireParent) are never stored anywhere, so Back after sign-out shows no
 * family data; public pages are never kept by a shared cache and always revalidated. The server-side page
 * cache (app/utils/page-cache.server.ts) is ours and unaffected.
 */
function cacheControl(context: AppLoadContext): string {
  return context.guarded ? "no-store" : "private, no-cache";
}

/** Single-fetch data (client-side navigation) follows the same rule. */
export function handleDataRequest(response: Response, { context }: { context: AppLoadContext }) {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", cacheControl(context));
  return response;
}

/** Lines about requests the router refused, at most one a second (with how many were held back): anyone can send them. */
export const REFUSED_REQUEST_LOG_MS = 1_000;

/**
 * What Remix reports outside a render — a loader or action that threw, a request no route can answer — as one JSON line
 * through the process's logger, never a multi-line stack on stderr. A request the router refuses (a POST where there
 * is no action, a GET of a resource route without a loader, an old `?_data` request) is the client's doing: its
 * status and path, no stack, at most one line a second. A real error keeps its stack, inside the one line.
 */
export function handleError(error: unknown, { request, context }: { request: Request; context: AppLoadContext }): void {
  if (request.signal.aborted) return;
  const log: Logger | undefined = context?.services?.log;
  const where = { method: request.method, path: new URL(request.url).pathname.slice(0, 200) };
  const refused = isRouteErrorResponse(error)
    ? error.status
    : error instanceof Error && error.message.startsWith("Warning: Single fetch-enabled apps should not be making ?_data requests")
      ? 400
      : null;
  if (!log) {
    console.error(JSON.stringify({ t: new Date().toISOString(), level: "error", msg: "request failed", ...where, error: String(error) }));
    return;
  }
  if (refused === 404) return; // server/web.ts logs every 404 once, with or without Remix
  if (refused !== null && refused < 500) {
    throttledLog(log, "request refused", REFUSED_REQUEST_LOG_MS)("info", "request refused", { ...where, status: refused });
    return;
  }
  const err = isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error;
  log("error", "request failed", {
    ...where,
    error: err instanceof Error ? err.message : String(err),
    stack: err instanceof Error ? err.stack : undefined,
  });
}
