/**
 * The web filter's category lists with 1,000,000 listed domains (issue 54 items 3 and 6), on SQLite:
 *  - the import (`npm run web-filter:import`'s code: a hosts file read line by line, batched transactions): domains/s;
 *  - the database's size on disk with them;
 *  - loading them into memory (web-filter/lists/load.ts) and the memory the packed index takes (heap + array
 *    buffers, after a full GC), beside a plain Map<domain, bit mask> of the same domains built in the same run;
 *  - lookup p50/p99 of `lookupCategories` (the name's suffixes, half listed names with a subdomain, half unlisted
 *    names), beside the Map walked by the same suffixes; and the database lookup (`categoriesOfName`, by suffixes on
 *    the primary key) p99, and the counts per category from the database (the Web Filter page's domain counts).
 *
 *   npx tsx bench/web-filter-lists.ts                    # 1,000,000 domains
 *   npx tsx bench/web-filter-lists.ts --domains 200000
 *   --json: only the result line (bench/report.ts); --smoke: 20,000 domains (checks the bench runs; no measurement)
 *
 * Domains are generated (seeded; bench/web-filter-domains.ts): pronounceable names, a third with a subdomain, a
 * realistic mix of TLDs; ~21 characters on average, like the public hosts lists. Targets (issue 54): the lists
 * in memory ≤ 150 MB and the database ≤ 150 MB with 1,000,000 domains; lookup p99 ≤ 0.05 ms.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createDb, migrateToLatest, sqliteHandleOf } from "../db/index";
import { domainCountsByCategory } from "../db/queries/web-filter/categories";
import { categoriesOfName } from "../db/queries/web-filter/domains";
import { syncCuratedLists } from "../web-filter/lists/curated-sync";
import { suffixesOf } from "../web-filter/lists/domain-name";
import { importLists } from "../web-filter/lists/import";
import { loadDomainIndex } from "../web-filter/lists/load";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter } from "./report";
import { domainMaker, LISTED_SEED, lookupNames, MB, memoryInUse as used, percentile, timeEach } from "./web-filter-domains";

const USAGE = `Usage: npx tsx bench/web-filter-lists.ts [--domains N] [--json] [--smoke]

  --domains N   listed domains to generate and import (default 1000000; --smoke: 20000)
  --json        print only the result line
  --smoke       a small run that only checks the bench works (no measurement)
  -h, --help    this text`;

const args = process.argv.slice(2);
if (args.includes("--help") || args.includes("-h")) {
  console.log(USAGE);
  process.exit(0);
}
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--domains") i++;
  else if (args[i] !== "--json" && args[i] !== "--smoke") {
    process.stderr.write(`Unknown option '${args[i]}'. See --help.\n`);
    process.exit(EXIT_USAGE);
  }
}
const SMOKE = args.includes("--smoke");
const DOMAINS = Number(args.includes("--domains") ? args[args.indexOf("--domains") + 1] : SMOKE ? 20_000 : 1_000_000);
if (!Number.isInteger(DOMAINS) || DOMAINS < 1_000) {
  process.stderr.write("--domains takes a whole number ≥ 1000.\n");
  process.exit(EXIT_USAGE);
}
const LOOKUPS = SMOKE ? 5_000 : 200_000;
const DB_LOOKUPS = SMOKE ? 500 : 5_000;
const out = reporter(args.includes("--json"));

async function main(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "web-filter-lists-bench-"));
  const db = createDb({ url: path.join(dir, "bench.sqlite") });
  try {
    await migrateToLatest(db);
    await syncCuratedLists(db);
    out.say(`# web filter lists: ${DOMAINS.toLocaleString("en-US")} generated domains${SMOKE ? " (smoke: no measurement)" : ""}`);

    // A hosts file of the generated domains, imported as an operator would.
    const file = path.join(dir, "hosts.txt");
    const w = createWriteStream(file);
    const next = domainMaker(LISTED_SEED);
    for (let i = 0; i < DOMAINS; i++) if (!w.write(`0.0.0.0 ${next()}\n`)) await new Promise<void>((r) => w.once("drain", () => r()));
    await new Promise<void>((r) => w.end(() => r()));
    const t0 = performance.now();
    const imported = await importLists(db, { categoryId: "adult", source: "bench", replace: false, inputs: [file] });
    const importSeconds = (performance.now() - t0) / 1000;
    out.say(`imported ${imported.added.toLocaleString("en-US")} domains in ${importSeconds.toFixed(1)} s`);
    sqliteHandleOf(db)?.pragma("wal_checkpoint(TRUNCATE)");
    const dbBytes = readdirSync(dir)
      .filter((f) => f.startsWith("bench.sqlite"))
      .reduce((sum, f) => sum + statSync(path.join(dir, f)).size, 0);

    // The packed index, loaded from the database.
    const before = used();
    const t1 = performance.now();
    const index = await loadDomainIndex(db);
    const loadSeconds = (performance.now() - t1) / 1000;
    const indexBytes = used() - before;
    out.say(`loaded ${index.size.toLocaleString("en-US")} domains in ${loadSeconds.toFixed(1)} s: ${(indexBytes / MB).toFixed(1)} MB`);

    // The names looked up: half listed (a third of those under a new subdomain), half unlisted.
    const names = lookupNames(LOOKUPS, DOMAINS);
    let hits = 0;
    const indexed = timeEach(names, (n) => (hits += index.lookupCategories(n).length ? 1 : 0));

    // Baseline: a Map of the same domains (fresh strings, as loaded), walked by the same suffixes.
    const beforeMap = used();
    const map = new Map<string, number>();
    const again = domainMaker(LISTED_SEED);
    for (let i = 0; i < DOMAINS; i++) map.set(again(), 1);
    const mapBytes = used() - beforeMap;
    const mapped = timeEach(names, (n) => suffixesOf(n).reduce((mask, s) => mask | (map.get(s) ?? 0), 0));
    map.clear();

    const dbNames = names.slice(0, DB_LOOKUPS);
    const dbTimes = new Float64Array(dbNames.length);
    for (let i = 0; i < dbNames.length; i++) {
      const t = process.hrtime.bigint();
      await categoriesOfName(db, dbNames[i]);
      dbTimes[i] = Number(process.hrtime.bigint() - t) / 1e6;
    }
    dbTimes.sort();
    const t2 = performance.now();
    await domainCountsByCategory(db);
    const countsMs = performance.now() - t2;
    out.say(
      `lookup p99 ${indexed.p99.toFixed(4)} ms (Map ${mapped.p99.toFixed(4)} ms, SQLite ${percentile(dbTimes, 99).toFixed(3)} ms); ${hits.toLocaleString("en-US")} of ${LOOKUPS.toLocaleString("en-US")} names listed`,
    );

    return out.finish(
      benchResult({
        bench: "web-filter-lists",
        figures: {
          domains: index.size,
          import_domains_per_s: imported.added / importSeconds,
          db_mb: dbBytes / MB,
          load_s: loadSeconds,
          index_mb: indexBytes / MB,
          index_typed_arrays_mb: index.byteLength / MB,
          lookup_p50_ms: indexed.p50,
          lookup_p99_ms: indexed.p99,
          db_lookup_p99_ms: percentile(dbTimes, 99),
          db_counts_ms: countsMs,
        },
        baselines: { map_mb: mapBytes / MB, map_lookup_p99_ms: mapped.p99 },
        ratios: { memory_vs_map: indexBytes / mapBytes, lookup_p99_vs_map: indexed.p99 / mapped.p99 },
        targets: { index_mb: { max: 150 }, db_mb: { max: 150 }, lookup_p99_ms: { max: 0.05 } },
      }),
    );
  } finally {
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`web-filter-lists bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(EXIT_FAILED);
  },
);
