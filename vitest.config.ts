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
      "#jobs": path.resolve("jobs"),
    },
  },
  test: {
    include: ["**/*.test.{ts,tsx}"],
    exclude: ["node_modules/**", "e2e/**", "build/**", ".cache/**"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: process.env.CI ? ["default"] : ["default"],
  },
});
