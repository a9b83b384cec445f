/**
 * Store catalogue search and the /play-store page, on SQLite and PostgreSQL, each beside a baseline measured in
 * the same run (issue 13):
 *  - search p95 (ranked full text: FTS5 / tsvector, then the list items) on the seed catalogue (300+ apps) and
 *    after adding synthetic apps (30,000 by default), against a bare `LIKE '%text%'` scan over title, developer
 *    and description (the same rows, no index);
 *  - /play-store full-render p95 (guarded layout, store loader, React SSR) beside a bare Express route (/healthz).
 *
 *   npx remix build && npx tsx bench/catalog-search.ts           # both dialects (each in its own process)
 *   npx tsx bench/catalog-search.ts --dialect sqlite              # one
 *   BENCH_SYNTHETIC=30000 BENCH_SAMPLES=200 …                     (defaults; small: BENCH_SYNTHETIC=2000 BENCH_SAMPLES=30)
 *   --json: only the result line; --smoke: 200 synthetic apps, 6 samples (checks the bench runs; no measurement)
 *
 * Each run starts from an empty database (SQLite in a temporary directory; PostgreSQL in `kids_portal_bench_catalog`,
 * recreated, on $BENCH_PG, default postgres://postgres@127.0.0.1:5432) seeded with the demo family.
 * Targets: /play-store full-render p95 ≤ 30 ms (seed catalogue and 30,000 more apps); search p95 at 30,000 apps no
 * slower than the LIKE scan. Ends with one JSON line (bench/report.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { benchResult, EXIT_FAILED, reporter, type Bound } from "./report";

const args = process.argv.slice(2);
const dialectArg = args.includes("--dialect") ? args[args.indexOf("--dialect") + 1] : null;
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (SMOKE ? 6 : 200));
const SYNTHETIC = Number(process.env.BENCH_SYNTHETIC ?? (SMOKE ? 200 : 30_000));
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
/** The child's database: the bench's own, recreated each run (a smoke run's is named by the parent's pid and dropped). */
const PG_DB = process.env.BENCH_CATALOG_PG_DB ?? "kids_portal_bench_catalog";
const TARGET_RENDER_P95_MS = 30;
const TARGET_SEARCH_RATIO = 1;
/** What parents type: whole words, prefixes while typing, a developer, accents. */
const QUERIES = ["khan", "duol", "minecraft", "pokémon", "google llc", "math", "draw", "chess", "piano", "weather", "photo edit", "puzzle"];
const WORDS = [
  "happy",
  "magic",
  "pixel",
  "super",
  "tiny",
  "space",
  "ocean",
  "farm",
  "city",
  "star",
  "math",
  "word",
  "color",
  "music",
  "puzzle",
  "racing",
  "story",
  "zoo",
  "robot",
  "dragon",
];

interface Latency {
  p50: number;
  p95: number;
}
interface Result {
  dialect: string;
  apps: number;
  synthetic: number;
  search300: Latency;
  like300: Latency;
  searchBig: Latency;
  likeBig: Latency;
  render: Latency;
  renderBig: Latency;
  bare: Latency;
}

function lat(xs: number[]): Latency {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
  return { p50: at(50), p95: at(95) };
}

/** `before(i)` runs untimed ahead of each timed `run(i)`. */
async function timeEach(n: number, run: (i: number) => Promise<unknown>, before?: (i: number) => Promise<unknown>): Promise<Latency> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    await before?.(i);
    const t = performance.now();
    await run(i);
    xs.push(performance.now() - t);
  }
  return lat(xs);
}

async function child(dialect: "sqlite" | "postgres"): Promise<Result> {
  process.env.DATA_DIR = mkdtempSync(path.join(os.tmpdir(), "kids-portal-bench-catalog-"));
  if (dialect === "postgres") {
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${PG_DB}`);
    await admin.query(`CREATE DATABASE ${PG_DB}`);
    await admin.end();
    process.env.DATABASE_URL = `${PG_BASE}/${PG_DB}`;
  } else {
    process.env.DATABASE_URL = "";
  }
  process.env.NODE_ENV = "production";
  // The web filter as in a deployment but with the development certificate, its DoT not started (no port to share).
  process.env.DNS_DEV_CERT = "true";
  process.env.DNS_DOT_IN_WEB = "false";
  process.env.PUBLIC_URL ??= "http://localhost";
  process.env.SEED_DEMO = "true";
  process.env.SIMULATE_DEMO_DEVICES = "false";
  process.env.LOG_LEVEL = "error";
  process.env.SESSION_SECRET ??= "bench-secret-bench-secret-bench-secret-0123";
  process.env.KIDS_APP_API_KEY ??= "bench-kids-app-key-bench-kids-app-key";

  const { startServer } = await import("../server/web");
  const { seedCatalog, DEMO_LOGIN } = await import("../db/seed/index");
  const { CATALOG_APPS } = await import("../db/seed/catalog-all");
  const { searchCatalog } = await import("../db/queries/store/catalog");
  const { createSession } = await import("../db/queries/sessions");
  const { sessionCookie } = await import("../core/session-cookie.server");

  const server = await startServer({ port: 0, quiet: true });
  try {
    const db = server.services.db;
    const parent = await db.selectFrom("parents").select("id").where("email", "=", DEMO_LOGIN.email).executeTakeFirstOrThrow();
    const device = await db
      .selectFrom("devices")
      .select(["id", "serial_number", "profile_id"])
      .where("serial_number", "=", "DEMO-MIA-0001")
      .executeTakeFirstOrThrow();
    const headers = {
      Cookie: (await sessionCookie().serialize(await createSession(db, parent.id, { idleMinutes: 720, absoluteDays: 7 }))).split(";")[0],
      Accept: "text/html",
    };
    const base = server.url.replace("0.0.0.0", "127.0.0.1");
    const like = (text: string) => {
      const pattern = `%${text.toLowerCase()}%`;
      return sql`SELECT package_name, title FROM catalog_apps
        WHERE lower(title) LIKE ${pattern} OR lower(developer) LIKE ${pattern} OR lower(description_html) LIKE ${pattern}
        ORDER BY reviews DESC LIMIT 50`.execute(db);
    };
    const search = (text: string) => searchCatalog(db, device.id, { kind: "text", text });
    const qs = (extra: Record<string, string>) =>
      new URLSearchParams({ profileId: device.profile_id, serialNumber: device.serial_number, ...extra }).toString();
    const pages = [
      qs({}),
      qs({ playstoreText: "minecraft" }),
      qs({ playstoreText: "draw" }),
      qs({ filterCategory: "EDUCATION" }),
      qs({ ageFilter: "AGE_RANGE2" }),
      qs({ expertRatingFilter: "EXPERT_RECOMMENDATION" }),
      qs({ tab: "search", shown: "40" }),
    ];
    // (The last is the whole catalogue after one Show More: forty rows. Results come twenty at a time, app/rules/store.ts.)
    // A full render every time: the kid's view_rev moves first, as a phone's upload would (no cached answer
    // could be used, should /play-store ever be page-cached; today only /kids-device is). Not timed: it is the
    // bench's write, not the page's.
    const moveViewRev = () =>
      db
        .updateTable("kid_profiles")
        .set((eb) => ({ view_rev: eb("view_rev", "+", 1) }))
        .where("id", "=", device.profile_id)
        .execute();
    const render = async (i: number) => {
      const r = await fetch(`${base}/play-store?${pages[i % pages.length]}`, { headers });
      const body = await r.text();
      if (!r.ok || !body.includes("Installed")) throw new Error(`/play-store answered ${r.status}`);
    };
    const bare = async () => {
      const r = await fetch(`${base}/healthz`);
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`/healthz answered ${r.status}`);
    };
    const analyze = () => sql`ANALYZE`.execute(db);

    await analyze();
    for (const q of QUERIES) await Promise.all([search(q), like(q)]); // warm up (plans, page cache, JIT)
    // Every page rendered a few times first, so the timed renders find its code compiled (JIT), as a server does
    // after its first minutes; with one or two renders a page the first samples measured the compiler.
    for (let i = 0; i < pages.length * 5; i++) await moveViewRev().then(() => render(i));
    const search300 = await timeEach(SAMPLES, (i) => search(QUERIES[i % QUERIES.length]));
    const like300 = await timeEach(SAMPLES, (i) => like(QUERIES[i % QUERIES.length]));
    const bareLat = await timeEach(SAMPLES, bare);
    const renderLat = await timeEach(SAMPLES, render, moveViewRev);

    // Synthetic apps: real listings' fields under new names made of common words, so searches find many.
    const extra = Array.from({ length: SYNTHETIC }, (_, i) => {
      const a = CATALOG_APPS[i % CATALOG_APPS.length]!;
      const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
      return {
        ...a,
        package_name: `com.bench.synthetic.app${i}`,
        title: `${w(1)} ${w(2)} ${a.title.split(/[:\-–]/)[0]!.trim()} ${i}`,
        developer: `${w(3)} Studio ${i % 500}`,
        is_system_app: false,
        reviews: 1 + ((i * 7919) % 100_000),
      };
    });
    const t0 = performance.now();
    await seedCatalog(db, extra);
    const seedSeconds = (performance.now() - t0) / 1000;
    // On SQLite the seeding is synchronous and holds the event loop past the server's keep-alive timeout (5 s):
    // the idle sockets the client pools are closed by the server only now. Let that happen before the next
    // request, or it would go out on a socket the server is closing (ECONNRESET).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await analyze();
    for (const q of QUERIES) await Promise.all([search(q), like(q)]);
    const searchBig = await timeEach(SAMPLES, (i) => search(QUERIES[i % QUERIES.length]));
    const likeBig = await timeEach(SAMPLES, (i) => like(QUERIES[i % QUERIES.length]));
    const renderBig = await timeEach(SAMPLES, render, moveViewRev);
    const apps = Number(
      (
        await db
          .selectFrom("catalog_apps")
          .select(sql<number>`count(*)`.as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    console.error(`${dialect}: ${apps} apps (${SYNTHETIC} synthetic added in ${seedSeconds.toFixed(1)} s)`);
    return { dialect, apps, synthetic: SYNTHETIC, search300, like300, searchBig, likeBig, render: renderLat, renderBig, bare: bareLat };
  } finally {
    await server.close();
  }
}

const ms = (x: Latency) => `p50 ${x.p50.toFixed(2)} ms  p95 ${x.p95.toFixed(2)} ms`;

if (args.includes("--child")) {
  const r = await child(dialectArg === "postgres" ? "postgres" : "sqlite");
  console.log(`RESULT ${JSON.stringify(r)}`);
  process.exit(0);
} else {
  const out = reporter(JSON_ONLY);
  const dialects = dialectArg ? [dialectArg] : ["sqlite", "postgres"];
  out.say(
    `bench: catalogue search and /play-store · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · load ${os.loadavg()[0]!.toFixed(1)} · Node ${process.version} · ${new Date().toISOString()}${SMOKE ? " · smoke: no measurement" : ""}`,
  );
  const self = fileURLToPath(import.meta.url);
  const figures: Record<string, number> = {};
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  const env = SMOKE ? { ...process.env, BENCH_CATALOG_PG_DB: `kids_portal_catalog_smoke_${process.pid}` } : process.env;
  for (const d of dialects) {
    const run = spawnSync(process.execPath, ["--import", "tsx", self, "--child", "--dialect", d, ...(SMOKE ? ["--smoke"] : [])], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", JSON_ONLY ? "pipe" : "inherit"],
      env,
    });
    const line = run.stdout.split("\n").find((l) => l.startsWith("RESULT "));
    if (!line) {
      process.stderr.write(`${run.stdout}${run.stderr ?? ""}\n${d}: no result (exit ${run.status})\n`);
      process.exit(EXIT_FAILED);
    }
    const r = JSON.parse(line.slice(7)) as Result;
    const seedApps = r.apps - r.synthetic;
    out.say(`${d.padEnd(9)} search, ${seedApps} apps:        ${ms(r.search300)}   | LIKE scan ${ms(r.like300)}`);
    out.say(`          search, ${r.apps} apps:      ${ms(r.searchBig)}   | LIKE scan ${ms(r.likeBig)}`);
    out.say(
      `          /play-store full render (${seedApps} apps): ${ms(r.render)}; with ${r.apps}: ${ms(r.renderBig)}   | bare /healthz ${ms(r.bare)}`,
    );
    figures[`${d}.searchP95Ms.seed`] = r.search300.p95;
    figures[`${d}.searchP95Ms.big`] = r.searchBig.p95;
    figures[`${d}.playStoreP95Ms`] = r.render.p95;
    figures[`${d}.playStoreP95Ms.big`] = r.renderBig.p95;
    figures[`${d}.apps.big`] = r.apps;
    baselines[`${d}.likeP95Ms.seed`] = r.like300.p95;
    baselines[`${d}.likeP95Ms.big`] = r.likeBig.p95;
    baselines[`${d}.bareP95Ms`] = r.bare.p95;
    ratios[`${d}.searchVsLike.seed`] = r.search300.p95 / r.like300.p95;
    ratios[`${d}.searchVsLike.big`] = r.searchBig.p95 / r.likeBig.p95;
    ratios[`${d}.playStoreVsBare`] = r.render.p95 / r.bare.p95;
    targets[`${d}.playStoreP95Ms`] = { max: TARGET_RENDER_P95_MS };
    targets[`${d}.playStoreP95Ms.big`] = { max: TARGET_RENDER_P95_MS };
    targets[`${d}.searchVsLike.big`] = { max: TARGET_SEARCH_RATIO };
  }
  if (SMOKE) {
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${env.BENCH_CATALOG_PG_DB}`);
    await admin.end();
  }
  process.exitCode = out.finish(benchResult({ bench: "catalog-search", figures, baselines, ratios, targets }));
}
