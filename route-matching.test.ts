import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";

/**
 * The server's route matching is patched (patches/@remix-run+router+1.23.3.patch, applied by `npm ci`'s
 * postinstall): the flattened, ranked branches of a route tree and each compiled path pattern are kept instead of
 * rebuilt on every call (docs/performance.md, session 24), and the matches of each pathname, copied for each caller
 * (session 30). Node loads the CommonJS build, which is the patched one;
 * the browser bundle uses the untouched ES module build, so the two must answer alike.
 */
const require = createRequire(import.meta.url);
type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { route: { id: string }; params: Record<string, string | undefined>; pathname: string; pathnameBase: string };
type Router = {
  matchRoutes(routes: Route[], location: string, basename?: string): Match[] | null;
  createRouter(init: unknown): {
    initialize(): unknown;
    navigate(to: string): Promise<void>;
    state: { matches: Match[]; errors: unknown };
    routes: Route[];
    dispose(): void;
  };
  createMemoryHistory(o: { initialEntries: string[] }): unknown;
};
const patched = require("@remix-run/router") as Router;
const cjsPath = require.resolve("@remix-run/router");

// A tree with what ranking and matching depend on: static beats dynamic beats splat, index routes, pathless
// layouts, siblings with the same path (the earlier wins), optional segments, case sensitivity, encoded segments.
const tree = (): Route[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      {
        id: "_app",
        children: [
          { id: "kids", path: "kids-device" },
          { id: "kid", path: "kids-device/:serial" },
          { id: "same-path-first", path: "twins" },
          { id: "same-path-second", path: "twins" },
          { id: "opt", path: "reports/:week?/print?" },
          { id: "Case", path: "CaseSensitive", caseSensitive: true },
        ],
      },
      { id: "app", path: "application", children: [{ id: "app-index", index: true }, { id: "app-one", path: ":pkg" }] },
      { id: "files", path: "files/*" },
      { id: "splat", path: "*" },
    ],
  },
];
const PATHS = [
  "/", "/kids-device", "/kids-device/", "/KIDS-DEVICE", "/kids-device/abc%20def", "/kids-device/a/b", "/twins",
  "/reports", "/reports/2026-W48", "/reports/2026-W48/print", "/reports/print", "/CaseSensitive", "/casesensitive",
  "/application", "/application/com.example.app", "/files", "/files/a/b.txt", "/nowhere/at/all", "/%E0%A4%A",
];
const shape = (ms: Match[] | null) => ms?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase })) ?? null;

describe("route matching (the server's patched @remix-run/router)", () => {
  it("is the patched build (a fresh `npm ci` applies patches/ in its postinstall)", () => {
    expect(readFileSync(cjsPath, "utf8"), "@remix-run/router is not patched: run `npm ci` (postinstall: patch-package)").toContain("flattenedBranches");
  });

  it("answers every path as the untouched build does, on the first call and on repeated ones", async () => {
    const reference = (await import("@remix-run/router/dist/router.js")) as unknown as Router;
    vi.spyOn(console, "warn").mockImplementation(() => {}); // both warn of the malformed path, alike
    expect(readFileSync(require.resolve("@remix-run/router/dist/router.js"), "utf8")).not.toContain("flattenedBranches");
    const routes = tree();
    for (let round = 0; round < 3; round++)
      for (const p of PATHS) expect(shape(patched.matchRoutes(routes, p)), `${p}, round ${round}`).toEqual(shape(reference.matchRoutes(tree(), p)));
    // A basename, and a second tree matched beside the first: each tree keeps its own branches.
    const other: Route[] = [{ id: "only", path: "only/:x" }];
    expect(shape(patched.matchRoutes(other, "/only/1"))?.[0]).toMatchObject({ id: "only", params: { x: "1" } });
    expect(shape(patched.matchRoutes(routes, "/base/kids-device", "/base"))).toEqual(shape(reference.matchRoutes(tree(), "/base/kids-device", "/base")));
    expect(patched.matchRoutes(routes, "/elsewhere", "/base")).toBeNull();
  });

  it("gives each caller its own matches of a kept pathname, and stays right past the bound of kept pathnames", async () => {
    const reference = (await import("@remix-run/router/dist/router.js")) as unknown as Router;
    expect(readFileSync(cjsPath, "utf8")).toContain("matchesByRoutes");
    const routes = tree();
    const first = patched.matchRoutes(routes, "/kids-device/abc")!;
    // As from a fresh match: one params object shared by the branch's matches; changing it changes no later answer.
    expect(first[0].params).toBe(first[first.length - 1].params);
    first[0].params.serial = "changed";
    first[1].pathname = "/changed";
    expect(shape(patched.matchRoutes(routes, "/kids-device/abc"))).toEqual(shape(reference.matchRoutes(tree(), "/kids-device/abc")));
    // More distinct pathnames than are kept (1,000 a tree): every answer still the untouched build's.
    for (let i = 0; i < 2_500; i++) {
      const p = i % 5 === 0 ? `/kids-device/s${i}` : i % 5 === 1 ? "/kids-device" : `/x${i}/y`;
      if (i % 250 < 3) expect(shape(patched.matchRoutes(routes, p)), p).toEqual(shape(reference.matchRoutes(tree(), p)));
      else patched.matchRoutes(routes, p);
    }
    for (const p of PATHS) expect(shape(patched.matchRoutes(routes, p)), p).toEqual(shape(reference.matchRoutes(tree(), p)));
  });

  it("sees routes added to a tree after it was matched (lazy route discovery patches the tree in place)", async () => {
    // Discovery matches the same array again after patching it: the kept branches must be rebuilt.
    const router = patched.createRouter({
      routes: [{ id: "root", path: "", children: [{ id: "home", index: true }] }],
      history: patched.createMemoryHistory({ initialEntries: ["/"] }),
      patchRoutesOnNavigation: ({ patch }: { patch: (id: string, children: Route[]) => void }) => patch("root", [{ id: "added", path: "added" }]),
    });
    router.initialize();
    try {
      expect(patched.matchRoutes(router.routes, "/added")).toBeNull();
      await router.navigate("/added");
      expect(router.state.errors).toBeNull();
      expect(router.state.matches.map((m) => m.route.id)).toEqual(["root", "added"]);
    } finally {
      router.dispose();
    }
  });
});
