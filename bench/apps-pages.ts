/**
 * The kid pages beyond the dashboard, full renders on the --big data set (5 kids × 80 apps × 365 days, with each
 * phone's pending requests, the kids' schedules and a year of weekly reports), on SQLite and PostgreSQL, each
 * beside a bare Express route (/healthz) timed the same way in the same run (issue 12, issue 22 item 4):
 * /application (Usage tab, Week), /category, /play-store (the Installed tab with every app on the phone, a text
 * search, a category), /requests, /reports (this month's), /report (a weekly report), /schedules and the kid's
 * /global-settings (the settings page of the mixed-load bench's parents, same target). Every request is a full
 * render: the guarded layout, the loaders' queries, the server-rendered charts and React SSR. (Global Settings is
 * page-cached, like the dashboard: the kid's view_rev is moved before each of its samples, outside
 * the timed span, and the answer must say it was a miss.) /application's Info tab (the store listing, kid and parent
 * ratings) is measured too, for the record.
 *
 *   npx remix build && npx tsx bench/apps-pages.ts             # both dialects (each in its own process)
 *   npx tsx bench/apps-pages.ts --dialect sqlite                # one
 *   BENCH_SAMPLES=150 …                                          (default: 150 sequential samples per page)
 *   --json                                                       only the result line (bench/report.ts)
 *   --smoke                                                      tiny run on the demo family, SQLite only
 *                                                                (checks the code path; its figures are no measurement)
 *
 * The data set is the dashboard bench's, seeded once and kept (bench/page-bench.ts).
 * Targets (issues 12 and 22): full-render p95 ≤ 30 ms for every page but the Info tab, on both dialects. Ends with
 * one JSON line.
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

/** The pages measured, in the order they are requested in each round; all but the Info tab have the target. */
const PAGES = [
  "application",
  "category",
  "applicationInfo",
  "playStore",
  "requests",
  "reports",
  "report",
  "schedules",
  "settings",
] as const;
type Page = (typeof PAGES)[number];
const TARGETED: Page[] = ["application", "category", "playStore", "requests", "reports", "report", "schedules", "settings"];
const LABEL: Record<Page, string> = {
  application: "/application Usage, Week",
  category: "/category",
  applicationInfo: "/application Info",
  playStore: "/play-store",
  requests: "/requests",
  reports: "/reports",
  report: "/report",
  schedules: "/schedules",
  settings: "/global-settings",
};

type Result = { dialect: string; samples: number; urls: Record<Page, number>; bare: Latency; seedSeconds: number | null } & Record<
  Page,
  Latency
>;

async function child(dialect: Dialect): Promise<Result> {
  const { server, db, parentId, headers, base, seedSeconds } = await openBenchServer(dialect, {
    smoke: SMOKE,
    smokePrefix: "apps-pages-smoke-",
  });
  try {
    const devices = await db
      .selectFrom("devices")
      .innerJoin("kid_profiles as k", "k.id", "devices.profile_id")
      .select(["devices.id", "devices.serial_number", "k.id as profileId"])
      .where("k.parent_id", "=", parentId)
      .orderBy("k.name")
      .execute();
    const since = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);
    const urls = Object.fromEntries(PAGES.map((p) => [p, [] as string[]])) as Record<Page, string[]>;
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
      const kid = { profileId: d.profileId, serialNumber: d.serial_number };
      const app = (p: string, extra: string) =>
        `${base}/application?${new URLSearchParams({ package_name: p, profile_id: d.profileId, serialNumber: d.serial_number })}${extra}`;
      for (const m of most.slice(0, PER_KID)) {
        urls.application.push(app(m.package_name, "&tab=usage&filter=week"));
        urls.applicationInfo.push(app(m.package_name, ""));
      }
      const categories = [...new Set(most.map((m) => m.play_store_category))].slice(0, PER_KID);
      for (const c of categories) urls.category.push(`${base}/category?${new URLSearchParams({ id: c, ...kid })}`);
      // The store: the Installed tab (every app on the phone), a text search and one of the kid's categories.
      const store: Record<string, string>[] = [
        {},
        { playstoreText: "draw" },
        { filterCategory: categories.find((c) => c !== "Others") ?? "EDUCATION" },
      ];
      for (const extra of store) urls.playStore.push(`${base}/play-store?${new URLSearchParams({ ...kid, ...extra })}`);
      urls.requests.push(`${base}/requests?${new URLSearchParams(kid)}`);
      // This month's reports, and the latest ones themselves.
      urls.reports.push(`${base}/reports?${new URLSearchParams(kid)}`);
      const latest = await db
        .selectFrom("reports")
        .select("id")
        .where("profile_id", "=", d.profileId)
        .orderBy("period_start", "desc")
        .limit(PER_KID)
        .execute();
      for (const r of latest) urls.report.push(`${base}/report?${new URLSearchParams({ id: r.id, ...kid })}`);
      urls.schedules.push(`${base}/schedules?${new URLSearchParams(kid)}`);
      urls.settings.push(`${base}/global-settings?${new URLSearchParams(kid)}`);
    }
    for (const p of PAGES) if (!urls[p].length) throw new Error(`the data set has nothing for ${LABEL[p]}`);
    const bareUrl = `${base}/healthz`;
    const isPage = (r: Response, body: string) => r.headers.get("content-type")?.includes("text/html") === true && body.includes("<h1");
    // On the big set every page must show real content (rows, not its empty state).
    const content: Partial<Record<Page, string>> = SMOKE
      ? {}
      : {
          playStore: 'data-testid="store-item"',
          requests: 'data-testid="request"',
          reports: "/report?id=",
          report: "report-big",
          schedules: 'data-testid="schedules"',
          settings: 'name="timeZone"',
        };
    const check = (p: Page) => (r: Response, body: string) => isPage(r, body) && (!content[p] || body.includes(content[p]!));
    // Warm up (JIT, SQLite page cache, Postgres plans).
    for (const p of PAGES) for (const u of urls[p]) await timedGet(u, headers, [], check(p));
    for (let i = 0; i < 20; i++) await timedGet(bareUrl, {}, [], () => true);
    const times = Object.fromEntries([...PAGES, "bare"].map((p) => [p, [] as number[]])) as Record<Page | "bare", number[]>;
    // Interleaved, so a busy moment on the machine falls on every page and on the bare route alike.
    for (let i = 0; i < SAMPLES; i++) {
      for (const p of PAGES) {
        const u = urls[p][i % urls[p].length]!;
        if (p === "settings")
          await db
            .updateTable("kid_profiles")
            .set((eb) => ({ view_rev: eb("view_rev", "+", 1) }))
            .where("id", "=", new URL(u).searchParams.get("profileId")!)
            .execute();
        const r = await timedGet(u, headers, times[p], check(p));
        if (p === "settings" && !/page-cache;desc="miss"/.test(r.headers.get("server-timing") ?? ""))
          throw new Error(`expected a full render (page cache miss) for ${u}`);
      }
      await timedGet(bareUrl, {}, times.bare, () => true);
    }
    const lat = Object.fromEntries(PAGES.map((p) => [p, latency(times[p])])) as Record<Page, Latency>;
    return {
      dialect,
      samples: SAMPLES,
      urls: Object.fromEntries(PAGES.map((p) => [p, urls[p].length])) as Record<Page, number>,
      bare: latency(times.bare),
      seedSeconds,
      ...lat,
    };
  } finally {
    await server.close();
  }
}

function fmt(r: Result): string {
  const line = (p: Page) =>
    `          ${`${LABEL[p]}:`.padEnd(27)}${fmtLatency(r[p])}${TARGETED.includes(p) ? `  ${r[p].p95 <= TARGET_P95_MS ? "OK" : "OVER TARGET"}` : ""}  (${r.urls[p]} pages)`;
  return [
    `${r.dialect} (${r.samples} sequential requests of each page, interleaved)`,
    ...PAGES.map(line),
    `          ${"bare /healthz:".padEnd(27)}${fmtLatency(r.bare)}`,
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
  out.say(
    `bench: kid pages (/application, /category, /play-store, /requests, /reports, /report, /schedules, /global-settings) on the ${SMOKE ? "demo (smoke: no measurement)" : "--big"} data set · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · Node ${process.version} · ${new Date().toISOString()}`,
  );
  const figures: Record<string, number> = {};
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  for (const { dialect: d, result: r } of runDialects<Result>(
    fileURLToPath(import.meta.url),
    "apps-pages",
    dialects,
    SMOKE ? ["--smoke"] : [],
  )) {
    out.say(fmt(r));
    for (const page of PAGES) {
      figures[`${d}.${page}P50Ms`] = r[page].p50;
      figures[`${d}.${page}P95Ms`] = r[page].p95;
      ratios[`${d}.${page}P95`] = r[page].p95 / r.bare.p95;
    }
    baselines[`${d}.bareP50Ms`] = r.bare.p50;
    baselines[`${d}.bareP95Ms`] = r.bare.p95;
    for (const page of TARGETED) targets[`${d}.${page}P95Ms`] = { max: TARGET_P95_MS };
  }
  process.exitCode = out.finish(benchResult({ bench: "apps-pages", figures, baselines, ratios, targets }));
}
