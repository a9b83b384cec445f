import { lazy, Suspense } from "react";
import { createRequestHandler, type AppLoadContext, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Links, Meta, Outlet, RemixServer, Scripts, useLoaderData } from "@remix-run/react";
import { describe, expect, it, vi } from "vitest";
import { renderToString } from "react-dom/server";
import handleRequest, { readDataWhole, renderStreamed } from "./entry.server";
import { testBuild } from "./remix-build.testing";

/**
 * A document is rendered as one string once single fetch's data is read whole (entry.server): the page must be the
 * one the streaming renderer made, byte for byte, data script included; a render in which something else suspends
 * must still wait for it. Checked through Remix's own request handler, with single fetch on, as the app runs.
 */
describe("a document's render", () => {
  it("is the streaming renderer's page, byte for byte: doctype, body, and the data script inside the body", async () => {
    const whole = await page(app(), "/kid", handleRequest);
    const streamed = await page(app(), "/kid", streamedEntry);
    expect(whole.status).toBe(200);
    expect(whole.html).toBe(streamed.html);
    expect(whole.html.startsWith("<!DOCTYPE html><html")).toBe(true);
    // The loader's data in the single-fetch script, and the stream closed, before </body>.
    const body = whole.html.slice(whole.html.indexOf("<body"), whole.html.indexOf("</body>"));
    expect(body).toContain("window.__remixContext.streamController.enqueue(");
    expect(body).toContain("Mia – 9 years");
    expect(body).toContain("window.__remixContext.streamController.close();");
    expect(whole.html).toContain("<p>Mia – 9 years</p>");
    expect(whole.html).not.toContain("<!--$!-->");
    expect(whole.html.endsWith("</body></html>")).toBe(true);
    // The modules load after what the first paint needs (docs/performance.md "Lighthouse (mobile)").
    expect(whole.html).toContain('<link rel="modulepreload" fetchpriority="low" href=');
    expect(whole.html).not.toMatch(/<link rel="modulepreload" href=/);
  });

  it("Remix's data script renders from the data read whole, without suspending (else every page would take the slow path)", async () => {
    let cached = 0;
    const probe: Entry = async (request, status, headers, context) => {
      await readDataWhole(context);
      cached = Object.keys(context.renderMeta?.streamCache ?? {}).length;
      return new Response(renderToString(<RemixServerFor request={request} context={context} />), { status, headers });
    };
    const { html } = await page(app(), "/kid", probe);
    expect(cached).toBeGreaterThan(1); // the data's chunks and the end of the stream
    expect(html).not.toContain("<!--$!-->");
    expect(html).toContain("window.__remixContext.streamController.close();");
  });

  it("leaves a data stream it cannot read to the streaming renderer (one already taken is not replaced)", async () => {
    const stream = new ReadableStream<Uint8Array>();
    const taken = stream.getReader();
    const context = { serverHandoffStream: stream, renderMeta: {} } as unknown as EntryContext;
    expect(await readDataWhole(context)).toBe(false);
    expect(context.serverHandoffStream).toBe(stream);
    expect(context.renderMeta?.streamCache).toBeUndefined();
    taken.releaseLock();
    expect(await readDataWhole({ renderMeta: {} } as unknown as EntryContext)).toBe(false);
  });

  it("a component that throws gives the error boundary's page with a 500, as before", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const whole = await page(app(), "/boom", handleRequest);
    expect(whole.status).toBe(500);
    expect(whole.html).toContain("<h1>Something went wrong</h1>");
    expect(whole.html).toBe((await page(app(), "/boom", streamedEntry)).html);
    expect(logged).toHaveBeenCalled(); // Remix logs the render's error, on both paths
    logged.mockRestore();
  });

  it("waits for what suspends beyond the data (the streamed render), and the page is whole", async () => {
    const whole = await page(app({ suspending: true }), "/kid", handleRequest);
    expect(whole.status).toBe(200);
    expect(whole.html).toContain("<p>loaded later</p>");
    expect(whole.html).not.toContain("<!--$!-->");
    expect(whole.html).toContain("window.__remixContext.streamController.close();");
    expect(whole.html).toBe((await page(app({ suspending: true }), "/kid", streamedEntry)).html);
  });
});

type Entry = ServerBuild["entry"]["module"]["default"];

/** The streaming renderer alone, as documents were rendered before. */
const streamedEntry: Entry = (request, status, headers, context, loadContext) =>
  renderStreamed(<RemixServerFor request={request} context={context} />, "", status, headers, loadContext as AppLoadContext);

// The element entry.server renders, for the streamed path (no nonce, no document markup: this app uses neither).
function RemixServerFor({ request, context }: { request: Request; context: EntryContext }) {
  return <RemixServer context={context} url={request.url} abortDelay={5_000} nonce="" />;
}

async function page(build: ServerBuild, path: string, entry: Entry) {
  const handler = createRequestHandler({ ...build, entry: { module: { ...build.entry.module, default: entry } } }, "production");
  const res = await handler(new Request(`http://portal.test${path}`), {} as AppLoadContext);
  return { status: res.status, html: await res.text() };
}

/** A small app with single fetch on: a document with Scripts, a route with a loader, one that throws; optionally a lazy part. */
function app({ suspending = false } = {}): ServerBuild {
  const Later = lazy(
    () => new Promise<{ default: () => JSX.Element }>((resolve) => setTimeout(() => resolve({ default: () => <p>loaded later</p> }), 5)),
  );
  return testBuild(
    {
      root: {
        path: "",
        module: {
          default: () => (
            <html lang="en">
              <head>
                <Meta />
                <Links />
              </head>
              <body>
                <Outlet />
                <Scripts />
              </body>
            </html>
          ),
          ErrorBoundary: () => <h1>Something went wrong</h1>,
        },
      },
      "routes/kid": {
        parentId: "root",
        path: "kid",
        module: {
          default: function Kid() {
            const { label } = useLoaderData<{ label: string }>();
            return (
              <main>
                <p>{label}</p>
                {suspending ? (
                  <Suspense fallback={<p>loading</p>}>
                    <Later />
                  </Suspense>
                ) : null}
              </main>
            );
          },
          loader: () => ({ label: "Mia – 9 years" }),
        },
      },
      "routes/boom": {
        parentId: "root",
        path: "boom",
        module: {
          default: function Boom(): JSX.Element {
            throw new Error("render failed");
          },
        },
      },
    },
    { entry: handleRequest, singleFetch: true },
  );
}
