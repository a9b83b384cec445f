import type { ServerBuild } from "@remix-run/node";

/** A route of a hand-made build: where it sits, and its module (component, loader, handle, ErrorBoundary…). */
export interface TestRoute {
  parentId?: string;
  path?: string;
  index?: boolean;
  module: Record<string, unknown>;
}

/**
 * A server build in the shape `remix build` writes, made by hand from a few route modules, for tests that go through
 * Remix's own request handler (`createRequestHandler`).
 */
export function testBuild(
  routes: Record<string, TestRoute>,
  { entry, singleFetch }: { entry: ServerBuild["entry"]["module"]["default"]; singleFetch: boolean },
): ServerBuild {
  const shape = Object.entries(routes).map(([id, { module, ...where }]) => ({ id, where, module }));
  return {
    mode: "production",
    entry: { module: { default: entry } },
    routes: Object.fromEntries(shape.map(({ id, where, module }) => [id, { id, ...where, caseSensitive: undefined, module }])),
    assets: {
      entry: { module: "/build/entry.js", imports: [] },
      url: "/build/manifest.js",
      version: "test",
      routes: Object.fromEntries(
        shape.map(({ id, where, module }) => [
          id,
          {
            id,
            ...where,
            module: `/build/${id}.js`,
            imports: [],
            hasAction: false,
            hasLoader: Boolean(module.loader),
            hasClientAction: false,
            hasClientLoader: false,
            hasErrorBoundary: Boolean(module.ErrorBoundary),
          },
        ]),
      ),
    },
    publicPath: "/build/",
    assetsBuildDirectory: "public/build",
    future: {
      v3_fetcherPersist: true,
      v3_relativeSplatPath: true,
      v3_throwAbortReason: true,
      v3_singleFetch: singleFetch,
      v3_lazyRouteDiscovery: singleFetch,
    },
    isSpaMode: false,
  } as unknown as ServerBuild;
}
