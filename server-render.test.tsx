import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable, createRequestHandler, type EntryContext, type ServerBuild } from "@remix-run/node";
import { Outlet, RemixServer, useLoaderData, useMatches, useParams } from "@remix-run/react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { testBuild } from "./app/remix-build.testing";

/**
 * A document's render keeps the server routes of a build and their data routes (patches/@remix-run+react+2.17.5.patch
 * and patches/react-router-dom+6.30.4.patch, applied by `npm ci`'s postinstall) instead of making 50 routes anew for
 * every document (docs/performance.md, dashboard, session 32). Node loads the patched CommonJS builds; the browser's
 * bundle uses the untouched ES modules. What must hold: every page renders as before, from any route to any other,
 * and a build whose route modules changed (development) renders its new modules.
 */
const require = createRequire(import.meta.url);

describe("the document render's kept routes (patched @remix-run/react and react-router-dom)", () => {
  it("is the patched build (a fresh `npm ci` applies patches/ in its postinstall)", () => {
    const hint = "not patched: run `npm ci` (postinstall: patch-package)";
    expect(readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8"), `@remix-run/react ${hint}`).toContain("keptServerRoutes");
    expect(readFileSync(require.resolve("react-router-dom/server"), "utf8"), `react-router-dom ${hint}`).toContain("dataRoutesByRoutes");
  });

  it("renders each route's own page, in any order, again and again", async () => {
    const { handle } = app(modules());
    const expected: Record<string, string> = {
      "/": "<main><h1>Home</h1></main>",
      "/kids/leo": "<main><section><h2>Kids</h2><p>kid leo</p></section></main>",
      "/kids/mia": "<main><section><h2>Kids</h2><p>kid mia</p></section></main>",
      "/kids": "<main><section><h2>Kids</h2><p>pick a kid</p></section></main>",
      "/about": "<main><p>about 42</p></main>",
    };
    for (let round = 0; round < 3; round++)
      for (const [path, body] of Object.entries(expected)) {
        const res = await handle(path);
        expect(res.status, path).toBe(200);
        expect(await res.text(), `${path}, round ${round}`).toBe(`<!DOCTYPE html>${body}`);
      }
    expect((await handle("/nowhere")).status).toBe(404);
  });

  it("renders a build's new modules when they change under the same manifest (a development rebuild)", async () => {
    const first = modules();
    const built = app(first);
    expect(await (await built.handle("/about")).text()).toBe("<!DOCTYPE html><main><p>about 42</p></main>");
    // The same manifest object, one route module replaced, as a rebuild of that file would: the route's component
    // is looked up at render time, its handle is kept in the server routes.
    const changed = { ...first, about: { ...first.about, handle: { label: "changed" } } };
    const rebuilt = app(changed, built.build);
    expect(await (await rebuilt.handle("/about")).text()).toBe("<!DOCTYPE html><main><p>changed 42</p></main>");
    expect(await (await rebuilt.handle("/kids/leo")).text()).toContain("kid leo");
    expect(await (await built.handle("/about")).text()).toBe("<!DOCTYPE html><main><p>about 42</p></main>");
  });

  it("gives a static router the same data routes for the same route tree, and its own for another", () => {
    const server = require("react-router-dom/server") as typeof import("react-router-dom/server");
    const tree = [{ id: "r", path: "/", children: [{ id: "a", path: "a", element: <p>a</p> }] }];
    const context = { basename: "/", location: { pathname: "/a", search: "", hash: "", state: null, key: "default" }, matches: [], loaderData: {}, actionData: null, errors: null, statusCode: 200, loaderHeaders: {}, actionHeaders: {}, activeDeferreds: null };
    const one = server.createStaticRouter(tree, context as never);
    const two = server.createStaticRouter(tree, context as never);
    expect(two.routes).toBe(one.routes);
    const other = server.createStaticRouter([{ id: "r", path: "/", children: [{ id: "b", path: "b" }] }], context as never);
    expect(other.routes).not.toBe(one.routes);
    expect(other.routes[0].children?.map((c) => c.id)).toEqual(["b"]);
    expect(renderToString(<server.StaticRouterProvider router={one} context={context as never} hydrate={false} />)).toBe(
      renderToString(<server.StaticRouterProvider router={two} context={context as never} hydrate={false} />),
    );
  });
});

type Modules = ReturnType<typeof modules>;

/** Route modules of a small app: a layout, an index, a nested dynamic route, a route with a loader and a handle. */
function modules() {
  return {
    root: { default: () => <main><Outlet /></main> },
    "routes/_index": { default: () => <h1>Home</h1> },
    "routes/kids": { default: () => <section><h2>Kids</h2><Outlet /></section> },
    "routes/kids._index": { default: () => <p>pick a kid</p> },
    "routes/kids.$kid": { default: function Kid() { return <p>{`kid ${useParams().kid}`}</p>; } },
    about: {
      default: function About() {
        const handle = useMatches().find((m) => m.id === "about")?.handle as { label: string };
        return <p>{`${handle.label} ${useLoaderData<{ n: number }>().n}`}</p>;
      },
      loader: () => ({ n: 42 }),
      handle: { label: "about" },
    },
  } as Record<string, Record<string, unknown>>;
}

/** A build of those modules (`before`'s manifest and flags: a rebuild), and a request handler over it. */
function app(mods: Modules, before?: ServerBuild) {
  const build = testBuild(
    {
      root: { path: "", module: mods.root },
      "routes/_index": { parentId: "root", index: true, module: mods["routes/_index"] },
      "routes/kids": { parentId: "root", path: "kids", module: mods["routes/kids"] },
      "routes/kids._index": { parentId: "routes/kids", index: true, module: mods["routes/kids._index"] },
      "routes/kids.$kid": { parentId: "routes/kids", path: ":kid", module: mods["routes/kids.$kid"] },
      about: { parentId: "root", path: "about", module: mods.about },
    },
    { entry: renderWhole, singleFetch: false, before },
  );
  const handler = createRequestHandler(build, "production");
  return { build, handle: (path: string) => handler(new Request(`http://portal.test${path}`)) };
}

/** The document body only (no scripts), rendered whole as the app's entry renders it. */
function renderWhole(request: Request, status: number, headers: Headers, context: EntryContext) {
  return new Promise<Response>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(<RemixServer context={context} url={request.url} />, {
      onAllReady() {
        const body = new PassThrough();
        headers.set("Content-Type", "text/html");
        resolve(new Response(createReadableStreamFromReadable(body), { status, headers }));
        body.write("<!DOCTYPE html>");
        pipe(body);
      },
      onShellError: reject,
    });
  });
}
