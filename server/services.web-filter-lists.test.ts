import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../core/env.server";
import { domainCountsByCategory } from "../db/queries/web-filter/categories";
import { CURATED_CATEGORIES } from "../web-filter/lists/curated";
import { createServices } from "./services";

describe("every process's start-up", () => {
  it("writes the shipped web filter categories and their domains into the database, once across restarts", async () => {
    const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), "kids-portal-lists-")), "data");
    const env = parseEnv({ NODE_ENV: "test", DATA_DIR: dataDir, SESSION_SECRET: "l".repeat(40), REDIS_URL: "" });
    const expected = Object.fromEntries(CURATED_CATEGORIES.map((c) => [c.id, c.domains.length]));
    for (let start = 0; start < 2; start++) {
      const services = await createServices({ kind: "web", env });
      try {
        expect(await domainCountsByCategory(services.db)).toEqual(expected);
      } finally {
        await services.close();
      }
    }
  }, 60_000);
});
