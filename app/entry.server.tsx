import { Writable } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./utils/nonce";

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
        // Pages are per parent: never kept by a shared cache, always revalidated by the browser.
        if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-cache");
        const body = Buffer.concat(chunks);
        // A page-cache miss keeps the page for the next identical request (it refuses non-200 and Set-Cookie).
        loadContext.pageCacheStore?.(body.toString("utf8"), responseStatusCode, responseHeaders);
        resolve(new Response(body, { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
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

/** Single-fetch data (client-side navigation) is per parent too. */
export function handleDataRequest(response: Response) {
  if (!response.headers.has("Cache-Control")) response.headers.set("Cache-Control", "private, no-cache");
  return response;
}
