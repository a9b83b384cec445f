import { describe, expect, it } from "vitest";
import { PageCache } from "./page-cache.server";

// The dashboard's explanations change by time alone (issue 21): an entry lives only until the loader's time.
describe("page cache entries with an end", () => {
  const entry = (expiresAt?: number) => ({
    gz: Buffer.from("<html></html>"),
    status: 200,
    headers: [] as [string, string][],
    bytes: 300,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });

  it("serves an entry before its time, and drops it (a miss) from its time on", () => {
    const cache = new PageCache(1_000_000);
    cache.set("k", entry(10_000));
    expect(cache.get("k", 9_999)?.gz.toString()).toBe("<html></html>");
    expect(cache.get("k", 10_000)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("an entry without an end lives until its key changes", () => {
    const cache = new PageCache(1_000_000);
    cache.set("k", entry());
    expect(cache.get("k", Number.MAX_SAFE_INTEGER)?.status).toBe(200);
  });
});
