/**
 * The weekly report run (issue 16) for a fleet of kids with a year of hourly usage, on SQLite and PostgreSQL:
 * reports built per second by the real job (jobs/reports/build.ts: per kid four queries, the aggregation in
 * the family's time zone, two nivo SVG charts, one insert) beside the same week aggregated for the whole fleet
 * by one bare SQL query in the same run, and the wall time of the whole weekly run. The mail half of a run
 * (PNG charts, composing, the recipients) is timed on a sample of reports and added per report, since a
 * mail to 10,000 real inboxes cannot be part of a bench; the transport is a sink.
 *
 *   npx tsx bench/reports.ts                       # 10,000 kids × 365 days, both dialects
 *   npx tsx bench/reports.ts --kids 2000 --days 90 --dialect sqlite
 *   --json                                         only the result line (bench/report.ts)
 *   --smoke                                        20 kids × 21 days on fresh databases (checks the code path; no measurement)
 *
 * Data: 4 hour buckets a day per kid (3 apps, one with a daily limit), five time zones, generated inside the
 * database (a recursive CTE / generate_series) with the view-revision triggers off while it loads. The data
 * set is kept between runs: SQLite in $BENCH_DATA_DIR (default /tmp/kids-portal-bench), PostgreSQL in the
 * database kids_portal_reports_bench on $BENCH_PG (default postgres://postgres@127.0.0.1:5432); each run
 * deletes the reports first. Target (issue 16): the whole fleet's weekly run (build and mail) under 5 minutes.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { createDb, migrateToLatest, type DB } from "../db/index";
import { buildDueReports } from "../jobs/reports/build";
import { mailPendingReports } from "../jobs/reports/mail";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter, type Bound } from "./report";

const args = process.argv.slice(2);
const opt = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const KIDS = Number(opt("--kids") ?? (SMOKE ? 20 : 10_000));
const DAYS = Number(opt("--days") ?? (SMOKE ? 21 : 365));
const MAIL_SAMPLE = Math.min(KIDS, Number(opt("--mail-sample") ?? (SMOKE ? 5 : 200)));
const DIALECTS = (opt("--dialect") ? [opt("--dialect")] : ["sqlite", "postgres"]) as ("sqlite" | "postgres")[];
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const TARGET_RUN_SECONDS = 300;
if (!(KIDS > 0 && DAYS >= 14 && DIALECTS.every((d) => d === "sqlite" || d === "postgres"))) {
  process.stderr.write(
    "usage: bench/reports.ts [--kids N] [--days N≥14] [--dialect sqlite|postgres] [--mail-sample N] [--smoke] [--json]\n",
  );
  process.exit(EXIT_USAGE);
}

/** The data ends on a Monday (exclusive) and the run happens that day at noon UTC: every zone's week has closed. */
const END = "2026-11-23";
const NOW = new Date(`${END}T12:00:00Z`);
const START = new Date(Date.parse(`${END}T00:00:00Z`) - DAYS * 86_400_000).toISOString().slice(0, 10);
const ZONES = ["UTC", "Europe/London", "America/New_York", "Asia/Tokyo", "Europe/Berlin"];
const SLOTS = [
  [0, 15, "com.mojang.minecraftpe"],
  [1, 16, "org.khanacademy.android"],
  [2, 19, "com.google.android.youtube"],
  [3, 20, "com.mojang.minecraftpe"],
] as const;
const TABLES = ["parents", "kid_profiles", "devices", "profile_apps", "app_usage_hourly"];

const out = reporter(JSON_ONLY);
const pad = (i: number) => String(i).padStart(6, "0");

async function openDb(dialect: "sqlite" | "postgres"): Promise<{ db: DB; cleanup: () => Promise<void> }> {
  if (dialect === "sqlite") {
    const dir = SMOKE
      ? mkdtempSync(path.join(os.tmpdir(), "reports-bench-smoke-"))
      : (process.env.BENCH_DATA_DIR ?? "/tmp/kids-portal-bench");
    mkdirSync(dir, { recursive: true });
    const db = createDb({ url: path.join(dir, `reports-${KIDS}x${DAYS}.sqlite`) });
    return { db, cleanup: async () => (SMOKE ? rmSync(dir, { recursive: true, force: true }) : undefined) };
  }
  const name = SMOKE ? `kids_portal_reports_smoke_${process.pid}` : `kids_portal_reports_bench_${KIDS}x${DAYS}`;
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
  await admin.connect();
  if (!(await admin.query("select 1 from pg_database where datname = $1", [name])).rowCount) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const db = createDb({ url: `${PG_BASE}/${name}`, poolSize: 4 });
  return {
    db,
    cleanup: async () => {
      if (!SMOKE) return;
      const c = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name}`);
      await c.end();
    },
  };
}

/** Runs `load` with the view-revision triggers of the loaded tables off (a bulk load is no dashboard change). */
async function withoutTriggers(db: DB, dialect: "sqlite" | "postgres", load: () => Promise<void>) {
  if (dialect === "postgres") {
    for (const t of TABLES) await sql`ALTER TABLE ${sql.table(t)} DISABLE TRIGGER USER`.execute(db);
    try {
      await load();
    } finally {
      for (const t of TABLES) await sql`ALTER TABLE ${sql.table(t)} ENABLE TRIGGER USER`.execute(db);
    }
    return;
  }
  const triggers = (
    await sql<{
      name: string;
      sql: string;
    }>`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name IN (${sql.join(TABLES)})`.execute(db)
  ).rows;
  for (const t of triggers) await sql`DROP TRIGGER ${sql.id(t.name)}`.execute(db);
  try {
    await load();
  } finally {
    for (const t of triggers) await sql.raw(t.sql).execute(db);
  }
}

/** The fleet: one parent per kid (Weekly, a time zone each), one phone, three apps; DAYS × 4 hour buckets each. */
async function seed(db: DB, dialect: "sqlite" | "postgres"): Promise<number> {
  const have = await db
    .selectFrom("kid_profiles")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const last = await db
    .selectFrom("app_usage_hourly")
    .select((eb) => eb.fn.max("hour").as("h"))
    .executeTakeFirst();
  if (
    Number(have.n) === KIDS &&
    String(last?.h ?? "").startsWith(new Date(Date.parse(`${END}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10))
  )
    return 0;
  if (Number(have.n) > 0) throw new Error(`the bench database holds another data set (${have.n} kids): delete it first`);
  const t0 = performance.now();
  const joined = `${START}T00:00:00.000Z`;
  await withoutTriggers(db, dialect, async () => {
    for (let from = 0; from < KIDS; from += 200) {
      const ids = Array.from({ length: Math.min(200, KIDS - from) }, (_, j) => from + j);
      await db
        .insertInto("parents")
        .values(
          ids.map((i) => ({
            id: `bp${pad(i)}`,
            email: `bench-${i}@example.com`,
            name: `Parent ${i}`,
            password_hash: null,
            role: "parent",
            use_default_password: 0,
            email_verified_at: joined,
            created_at: joined,
            updated_at: joined,
            kids_report_type: "Weekly",
            time_zone: ZONES[i % ZONES.length],
          })),
        )
        .execute();
      await db
        .insertInto("kid_profiles")
        .values(
          ids.map((i) => ({
            id: `bk${pad(i)}`,
            parent_id: `bp${pad(i)}`,
            name: `Kid ${i}`,
            birth_month: 1 + (i % 12),
            birth_year: 2014,
            picture_mime: null,
            picture: null,
            created_at: joined,
            updated_at: joined,
          })),
        )
        .execute();
      await db
        .insertInto("devices")
        .values(
          ids.map(
            (i) =>
              ({
                id: `bd${pad(i)}`,
                profile_id: `bk${pad(i)}`,
                serial_number: `BENCH${pad(i)}`,
                created_at: joined,
                updated_at: joined,
              }) as never,
          ),
        )
        .execute();
      await db
        .insertInto("profile_apps")
        .values(
          ids.flatMap((i) =>
            [
              ["com.mojang.minecraftpe", "GAME_ARCADE", 60],
              ["org.khanacademy.android", "EDUCATION", 0],
              ["com.google.android.youtube", "VIDEO_PLAYERS", 0],
            ].map(([pkg, category, limit]) => ({
              id: `ba${pad(i)}${String(pkg).slice(4, 10)}`,
              profile_id: `bk${pad(i)}`,
              device_id: `bd${pad(i)}`,
              package_name: String(pkg),
              play_store_category: String(category),
              enable_daily_limit: limit ? 1 : 0,
              daily_limit_minutes: Number(limit),
              disabled_type: null,
              installation_failure_reason: null,
              created_at: joined,
              updated_at: joined,
            })),
          ),
        )
        .execute();
    }
    const slots = sql.join(SLOTS.map(([slot, hr, pkg]) => sql`(${sql.lit(slot)}, ${sql.lit(hr)}, ${sql.lit(pkg)})`));
    for (let from = 0; from < KIDS; from += 500) {
      const to = Math.min(KIDS, from + 500) - 1;
      if (dialect === "sqlite") {
        await sql`WITH RECURSIVE k(i) AS (SELECT ${sql.lit(from)} UNION ALL SELECT i + 1 FROM k WHERE i < ${sql.lit(to)}),
            dd(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM dd WHERE n < ${sql.lit(DAYS - 1)}),
            s(slot, hr, pkg) AS (VALUES ${slots})
          INSERT INTO app_usage_hourly (device_id, package_name, hour, minutes)
          SELECT printf('bd%06d', k.i), s.pkg, strftime('%Y-%m-%dT%H:00:00.000Z', ${sql.lit(START)}, '+' || dd.n || ' days', '+' || s.hr || ' hours'),
                 ((k.i * 31 + dd.n * 17 + s.slot * 7) % 45) + 5
          FROM k, dd, s ORDER BY 1, 3`.execute(db);
      } else {
        await sql`INSERT INTO app_usage_hourly (device_id, package_name, hour, minutes)
          SELECT 'bd' || lpad(k::text, 6, '0'), s.pkg, to_char(timestamp ${sql.lit(START)} + make_interval(days => dd, hours => s.hr), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 ((k * 31 + dd * 17 + s.slot * 7) % 45) + 5
          FROM generate_series(${sql.lit(from)}, ${sql.lit(to)}) k, generate_series(0, ${sql.lit(DAYS - 1)}) dd, (VALUES ${slots}) s(slot, hr, pkg)
          ORDER BY 1, 3`.execute(db);
      }
      out.say(`  ${dialect}: usage of ${to + 1}/${KIDS} kids loaded (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    }
  });
  if (dialect === "postgres") await sql`ANALYZE`.execute(db);
  return (performance.now() - t0) / 1000;
}

/** The baseline: the closed week of every kid aggregated by one bare SQL query (per kid, app and UTC day). */
async function bareAggregate(db: DB): Promise<{ seconds: number; rows: number }> {
  const from = new Date(Date.parse(`${END}T00:00:00Z`) - 7 * 86_400_000).toISOString();
  const to = `${END}T00:00:00.000Z`;
  const t = performance.now();
  const rows = await db
    .selectFrom("app_usage_hourly as h")
    .innerJoin("devices as d", "d.id", "h.device_id")
    .select((eb) => [
      "d.profile_id",
      "h.package_name",
      eb.fn<string>("substr", ["h.hour", eb.val(1), eb.val(10)]).as("day"),
      eb.fn.sum<number>("h.minutes").as("minutes"),
    ])
    .where("h.hour", ">=", from)
    .where("h.hour", "<", to)
    .where("h.package_name", "!=", "com.kidsportal.kidsapp")
    .groupBy(["d.profile_id", "h.package_name", "day"])
    .execute();
  return { seconds: (performance.now() - t) / 1000, rows: rows.length };
}

interface DialectResult {
  seedSeconds: number;
  bareSeconds: number;
  buildSeconds: number;
  /** this process's CPU time during the build (on a busy machine the wall time is mostly waiting for a core) */
  buildCpuSeconds: number;
  built: number;
  mailMsPerReport: number;
  mailCpuMsPerReport: number;
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function measure(dialect: "sqlite" | "postgres"): Promise<DialectResult> {
  const { db, cleanup } = await openDb(dialect);
  try {
    await migrateToLatest(db);
    const seedSeconds = await seed(db, dialect);
    await db.deleteFrom("reports").execute();
    if (dialect === "postgres") await sql`VACUUM ANALYZE reports`.execute(db);
    // Warm-up (page cache, plans), then the best of three for the baseline.
    await bareAggregate(db);
    const bare = [await bareAggregate(db), await bareAggregate(db), await bareAggregate(db)].sort((a, b) => a.seconds - b.seconds)[0];
    if (bare.rows < KIDS) throw new Error(`the bare aggregate found ${bare.rows} rows for ${KIDS} kids`);

    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const summary = await buildDueReports(
      { db },
      { now: NOW, afterKid: (done) => (done % 2000 === 0 ? out.say(`  ${dialect}: ${done}/${KIDS} kids`) : undefined) },
    );
    const buildSeconds = (performance.now() - t0) / 1000;
    const buildCpuSeconds = cpuSeconds(c0);
    if (summary.built !== KIDS) throw new Error(`built ${summary.built} reports for ${KIDS} kids`);

    // The mail half on a sample: the other reports' mail is left out of this run.
    const sample = await db.selectFrom("reports").select("id").orderBy("id").limit(MAIL_SAMPLE).execute();
    await db
      .updateTable("reports")
      .set({ mail_state: "none" })
      .where(
        "id",
        "not in",
        sample.map((r) => r.id),
      )
      .execute();
    let bytes = 0;
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    const mailed = await mailPendingReports(
      {
        db,
        publicUrl: "https://portal.example",
        secret: "bench-secret-bench-secret-bench-secret-0123",
        mailer: async (m) => {
          bytes += m.html.length + m.attachments.reduce((s, a) => s + a.content.length, 0);
          return true;
        },
      },
      NOW,
    );
    const mailMsPerReport = (performance.now() - t1) / Math.max(1, mailed);
    const mailCpuMsPerReport = (cpuSeconds(c1) * 1000) / Math.max(1, mailed);
    if (mailed !== sample.length || bytes === 0) throw new Error(`mailed ${mailed} of ${sample.length} sampled reports`);
    return {
      seedSeconds,
      bareSeconds: bare.seconds,
      buildSeconds,
      buildCpuSeconds,
      built: summary.built,
      mailMsPerReport,
      mailCpuMsPerReport,
    };
  } finally {
    await db.destroy();
    await cleanup();
  }
}

out.say(
  `bench: weekly reports for ${KIDS} kids × ${DAYS} days${SMOKE ? " (smoke: no measurement)" : ""} · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · Node ${process.version} · load ${os.loadavg()[0].toFixed(2)} · ${new Date().toISOString()}`,
);
const figures: Record<string, number> = { kids: KIDS, days: DAYS };
const baselines: Record<string, number> = {};
const ratios: Record<string, number> = {};
const targets: Record<string, Bound> = {};
try {
  for (const d of DIALECTS) {
    const r = await measure(d);
    const reportsPerSecond = r.built / r.buildSeconds;
    const bareKidsPerSecond = KIDS / r.bareSeconds;
    const runSeconds = r.buildSeconds + (r.mailMsPerReport * KIDS) / 1000;
    out.say(
      [
        `${d.padEnd(9)} ${r.seedSeconds ? `seeded in ${r.seedSeconds.toFixed(0)} s; ` : ""}bare aggregate of the week: ${r.bareSeconds.toFixed(2)} s (${bareKidsPerSecond.toFixed(0)} kids/s)`,
        `          report build: ${r.built} in ${r.buildSeconds.toFixed(1)} s → ${reportsPerSecond.toFixed(1)} reports/s (${((reportsPerSecond / bareKidsPerSecond) * 100).toFixed(2)}% of the bare query's rate); this process's CPU ${r.buildCpuSeconds.toFixed(0)} s`,
        `          mail (PNG charts, compose, recipients; sink transport): ${r.mailMsPerReport.toFixed(1)} ms/report on ${MAIL_SAMPLE} (CPU ${r.mailCpuMsPerReport.toFixed(1)} ms, PNG threads included)`,
        `          whole weekly run: ${r.buildSeconds.toFixed(0)} s build + ${((r.mailMsPerReport * KIDS) / 1000).toFixed(0)} s mail = ${runSeconds.toFixed(0)} s (target < ${TARGET_RUN_SECONDS} s)`,
      ].join("\n"),
    );
    Object.assign(figures, {
      [`${d}.reportsPerSecond`]: reportsPerSecond,
      [`${d}.buildSeconds`]: r.buildSeconds,
      [`${d}.buildCpuSeconds`]: r.buildCpuSeconds,
      [`${d}.mailMsPerReport`]: r.mailMsPerReport,
      [`${d}.mailCpuMsPerReport`]: r.mailCpuMsPerReport,
      [`${d}.weeklyRunSeconds`]: runSeconds,
    });
    baselines[`${d}.bareKidsPerSecond`] = bareKidsPerSecond;
    ratios[`${d}.reportsPerSecond`] = reportsPerSecond / bareKidsPerSecond;
    targets[`${d}.weeklyRunSeconds`] = { max: TARGET_RUN_SECONDS };
  }
} catch (err) {
  process.stderr.write(`reports bench: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(EXIT_FAILED);
}
process.exitCode = out.finish(benchResult({ bench: "reports", figures, baselines, ratios, targets }));
