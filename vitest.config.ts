import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The same aliases as tsconfig.json's paths: ~/ is app/; app/ reaches the rooms below by #core/, #db/, …
  resolve: {
    alias: {
      "~": path.resolve("app"),
      "#core": path.resolve("core"),
      "#db": path.resolve("db"),
      "#device-service": path.resolve("device-service"),
      "#web-filter": path.resolve("web-filter"),
      "#jobs": path.resolve("jobs"),
    },
  },
  test: {
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", "e2e/**", "build/**", ".cache/**"],
    environment: "node",
    // The web filter in the servers the tests start (NODE_ENV=production there): its DoT on a free port, with the
    // development certificate (a deployment names its own, docs/web-filter.md).
    env: { DNS_DOT_PORT: "0", DNS_DEV_CERT: "true" },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time even on 2 cores (vitest's default there is one): each file has its own PostgreSQL database
    // and free ports, and on the shared Redis its own ids (a message for another file's phone finds no socket), and
    // most of a file's time is spent waiting on servers it started.
    // On 2 cores: 7.5 min instead of 9.6 on a slow machine (docs/contributing.md).
    poolOptions: { forks: { maxForks: Math.max(2, availableParallelism() - 1), minForks: 1 } },
    reporters: ["default"],
  },
});
