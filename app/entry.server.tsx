import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { RETRY_AFTER_SECONDS } from "#db/unavailable";
import { NonceProvider } from "./utils/nonce";
import { DocumentMarkupContext } from "./utils/document-markup";

const ABORT_DELAY = 5_000;

/**
 * Documents are rendered whole, then sent as one body. No route streams (no defer, no Suspense), so streaming
 * gained nothing, while React's ~2 KB chunks each went through a web stream, the Express adapter and its own
 * zlib call: sending one buffer cut the compression and stream overhead of a dashboard render by more than half
 * (docs/performance.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce ?? "";
  return new Promise<Response>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        callback();
      },
      final(callback) {
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", cacheControl(loadContext));
        // The database is briefly unavailable (app/utils/outage.server.ts): say when to try again.
        if (responseStatusCode === 503) responseHeaders.set("Retry-After", String(RETRY_AFTER_SECONDS));
        // Read byte for byte (latin1), never decoded: the edits below look for ASCII only, which UTF-8 never uses
        // inside a multi-byte character. Decoding an 80 KB page with any non-ASCII character in it took ~0.7 ms
        // (V8's slow path) and encoding it back ~0.2 ms; the byte view costs ~0.03 ms both ways.
        const page = Buffer.from(scriptsInsideBody(withoutViewPadding(Buffer.concat(chunks).toString("latin1"))), "latin1");
        // A page-cache miss keeps the page for the next identical request (it refuses non-200 and Set-Cookie) and
        // then answers with the stored form (scripts authorised by hash, gzip when the client takes it).
        const body = loadContext.pageCacheStore?.(page, responseStatusCode, responseHeaders) ?? page;
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <DocumentMarkupContext.Provider value={loadContext.documentMarkup ?? null}>
          <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
        </DocumentMarkupContext.Provider>
      </NonceProvider>,
      {
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
      },
    );
    const timer = setTimeout(abort, ABORT_DELAY);
  });
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
