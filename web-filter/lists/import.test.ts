import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { domainsOfSource, insertListedDomains } from "../../db/queries/web-filter/domains";
import { syncCuratedLists } from "./curated-sync";
import { importLists, type ImportProgress } from "./import";

const dir = mkdtempSync(path.join(os.tmpdir(), "web-filter-lists-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, lines: string[]): string {
  const p = path.join(dir, name);
  writeFileSync(p, lines.join("\r\n"));
  return p;
}

describe.each(DIALECTS)("importLists on %s", (dialect) => {
  let t: TestDb;
  beforeEach(async () => {
    t = await createTestDb(dialect);
    await syncCuratedLists(t.db);
  });
  afterEach(() => t.destroy());

  it("reads every format across inputs, dedupes against the inputs and the database, and counts what it skipped", async () => {
    await insertListedDomains(t.db, [{ domain: "old.example.org", category_id: "gambling", source: "other" }]);
    const hosts = file("hosts", ["# a hosts file", "127.0.0.1 localhost", "0.0.0.0 a.example.org b.example.org", "0.0.0.0 bücher.de"]);
    const adblock = file("dns.txt", [
      "[Adblock Plus 2.0]",
      "! comment",
      "||c.example.org^",
      "||d.example.org^$important",
      "@@||a.example.org^",
    ]);
    const plain = file("plain.txt", ["A.example.org.", "old.example.org", "bet365.com", "", "not a domain"]);
    const progress: ImportProgress[] = [];
    const summary = await importLists(t.db, {
      categoryId: "gambling",
      source: "mixed",
      replace: false,
      inputs: [hosts, adblock, plain],
      onProgress: (p) => progress.push(p),
    });
    expect(summary).toEqual({
      lines: 14,
      commentsOrBlank: 4,
      domains: 6,
      added: 4,
      alreadyListed: 2,
      duplicates: 1,
      skipped: { "local name": 1, "AdBlock rule with options": 1, "AdBlock exception": 1, "invalid domain": 1 },
      removed: 0,
    });
    expect(progress.at(-1)).toMatchObject({ input: "plain.txt", lines: 5, size: expect.any(Number) });
    expect(progress.at(-1)!.bytes).toBe(progress.at(-1)!.size);
    expect((await domainsOfSource(t.db, "mixed")).get("gambling")).toEqual(
      ["a.example.org", "b.example.org", "c.example.org", "xn--bcher-kva.de"].sort(),
    );
  });

  it("a rerun adds nothing; --replace lists exactly the source's new version, other sources untouched", async () => {
    const v1 = file("v1.txt", ["one.example.org", "two.example.org"]);
    const options = { categoryId: "adult", source: "list", replace: false, inputs: [v1] };
    expect((await importLists(t.db, options)).added).toBe(2);
    expect(await importLists(t.db, options)).toMatchObject({ added: 0, alreadyListed: 2 });
    await insertListedDomains(t.db, [{ domain: "kept.example.org", category_id: "adult", source: "another" }]);
    const v2 = file("v2.txt", ["two.example.org", "three.example.org"]);
    expect(await importLists(t.db, { ...options, replace: true, inputs: [v2] })).toMatchObject({ removed: 2, added: 2 });
    expect((await domainsOfSource(t.db, "list")).get("adult")).toEqual(["three.example.org", "two.example.org"]);
    expect((await domainsOfSource(t.db, "another")).get("adult")).toEqual(["kept.example.org"]);
  });
});
