import { describe, expect, it } from "vitest";
import { CURATED_CATEGORIES } from "./curated";
import { MAX_CATEGORIES } from "./domain-index";
import { normaliseDomain } from "./domain-name";

describe("the curated category list", () => {
  it("has at least 12 categories with stable kebab-case ids, a name and a one-line description", () => {
    expect(CURATED_CATEGORIES.length).toBeGreaterThanOrEqual(12);
    expect(CURATED_CATEGORIES.length).toBeLessThanOrEqual(MAX_CATEGORIES);
    const ids = CURATED_CATEGORIES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of CURATED_CATEGORIES) {
      expect(c.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(c.name.length, c.id).toBeGreaterThan(2);
      expect(c.description, c.id).toMatch(/^[A-Z].{10,110}\.$/);
      expect(c.description, c.id).not.toContain("\n");
    }
    for (const id of ["adult", "gambling", "social-networks", "games", "video-streaming", "chat-messaging", "dating", "proxies-vpn"])
      expect(ids).toContain(id);
  });

  it("lists at least ten domains per category, each normalised and listed once", () => {
    for (const c of CURATED_CATEGORIES) {
      expect(c.domains.length, c.id).toBeGreaterThanOrEqual(10);
      expect(new Set(c.domains).size, `${c.id} lists a domain twice`).toBe(c.domains.length);
      for (const d of c.domains) expect(normaliseDomain(d), `${c.id}: ${d}`).toEqual({ domain: d });
    }
  });
});
