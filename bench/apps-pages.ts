/**
 * /application (Usage tab, Week) and /category full renders on the --big data set (5 kids × 80 apps × 365 days),
 * on SQLite and PostgreSQL, each beside a bare Express route (/healthz) timed the same way in the same run
 * (issue 12). Neither page is page-cached (only /kids-device is), so every request is a full render: the
 * guarded layout, the loaders' queries, the server-rendered charts and React SSR. /application's Info tab (the
 * store listing, kid and parent ratings) is measured too, for the record.
 *
 *   npx remix build && npx tsx bench/apps-pages.ts             # both dialects (each in its own process)
 *   npx tsx bench/apps-pages.ts --dialect sqlite                # one
 *   BENCH_SAMPLES=150 …                                          (default: 150 sequential samples per page)
 *   --json                                                       only the result line (bench/report.ts)
 *   --smoke                                                      tiny run on the demo family, SQLite only
 *                                                                (checks the code path; its figures are no measurement)
 *
 * The data set is the dashboard bench's, seeded once and kept (bench/page-bench.ts).
 * Targets (issue 12): full-render p95 ≤ 30 ms for both pages on both dialects. Ends with one JSON line.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { benchResult, reporter, type Bound } from "./report";
import { fmtLatency, latency, openBenchServer, runDialects, timedGet, type Dialect, type Latency } from "./page-bench";

const args = process.argv.slice(2);
const dialectArg = args.includes("--dialect") ? args[args.indexOf("--dialect") + 1] : null;
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (SMOKE ? 9 : 150));
/** Apps and categories per kid the samples go round (the kid's most used ones over the last week). */
const PER_KID = SMOKE ? 2 : 4;
const TARGET_P95_MS = 30;

interface Result {
  dialect: string;
  samples: number;
  pages: number;
  application: Latency;
  applicationInfo: Latency;
  category: Latency;
  bare: Latency;
  seedSeconds: number | null;
}

async function child(dialect: Dialect): Promise<Result> {
  const { server, db, parentId, headers, base, seedSeconds } = await openBenchServer(dialect, { smoke: SMOKE, smokePrefix: "apps-pages-smoke-" });
  try {
    const devices = await db
      .selectFrom("devices")
      .innerJoin("kid_profiles as k", "k.id", "devices.profile_id")
      .select(["devices.id", "devices.serial_number", "k.id as profileId"])
      .where("k.parent_id", "=", parentId)
      .orderBy("k.name")
      .execute();
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const appUrls: string[] = [];
    const infoUrls: string[] = [];
    const categoryUrls: string[] = [];
    for (const d of devices) {
      const most = await db
        .selectFrom("app_usage_daily as u")
        .innerJoin("profile_apps as pa", (j) => j.onRef("pa.device_id", "=", "u.device_id").onRef("pa.package_name", "=", "u.package_name"))
        .select(["u.package_name", "pa.play_store_category", sql<number>`sum(u.minutes)`.as("minutes")])
        .where("u.device_id", "=", d.id)
        .where("u.day", ">=", since)
        .groupBy(["u.package_name", "pa.play_store_category"])
        .orderBy("minutes", "desc")
        .limit(PER_KID * 4)
        .execute();
      const app = (p: string, extra: string) => `${base}/application?${new URLSearchParams({ package_name: p, profile_id: d.profileId, serialNumber: d.serial_number })}${extra}`;
      for (const m of most.slice(0, PER_KID)) {
        appUrls.push(app(m.package_name, "&tab=usage&filter=week"));
        infoUrls.push(app(m.package_name, ""));
      }
      for (const c of [...new Set(most.map((m) => m.play_store_category))].slice(0, PER_KID)) {
        categoryUrls.push(`${base}/category?${new URLSearchParams({ id: c, profileId: d.profileId, serialNumber: d.serial_number })}`);
      }
    }
    if (!appUrls.length || !categoryUrls.length) throw new Error("the data set has no used apps in the last week");
    const bareUrl = `${base}/healthz`;
    const isPage = (r: Response, body: string) => r.headers.get("content-type")?.includes("text/html") === true && body.includes("<h1");
    // Warm up (JIT, SQLite page cache, Postgres plans).
    for (const u of [...appUrls, ...infoUrls, ...categoryUrls]) await timedGet(u, headers, [], isPage);
    for (let i = 0; i < 20; i++) await timedGet(bareUrl, {}, [], () => true);
    const times = { application: [] as number[], applicationInfo: [] as number[], category: [] as number[], bare: [] as number[] };
    // Interleaved, so a busy moment on the machine falls on every page and on the bare route alike.
    for (let i = 0; i < SAMPLES; i++) {
      await timedGet(appUrls[i % appUrls.length]!, headers, times.application, isPage);
      await timedGet(categoryUrls[i % categoryUrls.length]!, headers, times.category, isPage);
      await timedGet(infoUrls[i % infoUrls.length]!, headers, times.applicationInfo, isPage);
      await timedGet(bareUrl, {}, times.bare, () => true);
    }
    return {
      dialect,
      samples: SAMPLES,
      pages: appUrls.length + categoryUrls.length,
      application: latency(times.application),
      applicationInfo: latency(times.applicationInfo),
      category: latency(times.category),
      bare: latency(times.bare),
      seedSeconds,
    };
  } finally {
    await server.close();
  }
}

function fmt(r: Result): string {
  const ok = (x: Latency) => (x.p95 <= TARGET_P95_MS ? "OK" : "OVER TARGET");
  return [
    `${r.dialect.padEnd(9)} /application Usage, Week: ${fmtLatency(r.application)}  ${ok(r.application)}  (${r.samples} sequential requests over ${r.pages} pages)`,
    `          /category:                ${fmtLatency(r.category)}  ${ok(r.category)}`,
    `          /application Info:        ${fmtLatency(r.applicationInfo)}`,
    `          bare /healthz:            ${fmtLatency(r.bare)}`,
    r.seedSeconds != null ? `          (seeded the data set in ${r.seedSeconds.toFixed(0)} s)` : "",
  ]
    .filter(Boolean)
    .join("\n");
}

if (args.includes("--child")) {
  const r = await child(dialectArg === "postgres" ? "postgres" : "sqlite");
  console.log(`RESULT ${JSON.stringify(r)}`);
  process.exit(0);
} else {
  const out = reporter(JSON_ONLY);
  const dialects = dialectArg ? [dialectArg] : SMOKE ? ["sqlite"] : ["sqlite", "postgres"];
  out.say(`bench: /application and /category on the ${SMOKE ? "demo (smoke: no measurement)" : "--big"} data set · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · Node ${process.version} · ${new Date().toISOString()}`);
  const figures: Record<string, number> = {};
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  for (const { dialect: d, result: r } of runDialects<Result>(fileURLToPath(import.meta.url), "apps-pages", dialects, SMOKE ? ["--smoke"] : [])) {
    out.say(fmt(r));
    for (const page of ["application", "category", "applicationInfo"] as const) {
      figures[`${d}.${page}P50Ms`] = r[page].p50;
      figures[`${d}.${page}P95Ms`] = r[page].p95;
      ratios[`${d}.${page}P95`] = r[page].p95 / r.bare.p95;
    }
    baselines[`${d}.bareP50Ms`] = r.bare.p50;
    baselines[`${d}.bareP95Ms`] = r.bare.p95;
    targets[`${d}.applicationP95Ms`] = { max: TARGET_P95_MS };
    targets[`${d}.categoryP95Ms`] = { max: TARGET_P95_MS };
  }
  process.exitCode = out.finish(benchResult({ bench: "apps-pages", figures, baselines, ratios, targets }));
}
