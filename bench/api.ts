/**
 * The API beside the page (issue 56): the dashboard's two reads through /api/v1 (GET device/kids-list, then GET
 * device/most-used-apps for the kid, Week) against the dashboard's own loader (`/kids-device.data`, single fetch, the
 * Week tab, a page-cache miss: the kid's view_rev is moved before each of its samples, outside the timed span), on
 * the same data set in the same run, interleaved, on SQLite and PostgreSQL.
 *
 *   npx remix build && npx tsx bench/api.ts            # both dialects (each in its own process)
 *   npx tsx bench/api.ts --dialect sqlite               # one
 *   BENCH_SAMPLES=150 …                                  (default: 150 sequential samples of each)
 *   --json                                               only the result line (bench/report.ts)
 *   --smoke                                              tiny run on the demo family, SQLite only (no measurement)
 *
 * Target: the API's two calls at p50 ≤ 1.5 × the loader's p50, on both dialects. Ends with one JSON line.
 */
import os from "node:os";
import { fileURLToPath } from "node:url";
import { benchResult, reporter, type Bound } from "./report";
import { fmtLatency, latency, openBenchServer, runDialects, timedGet, type Dialect, type Latency } from "./page-bench";

const args = process.argv.slice(2);
const dialectArg = args.includes("--dialect") ? args[args.indexOf("--dialect") + 1] : null;
const SMOKE = args.includes("--smoke");
const JSON_ONLY = args.includes("--json");
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? (SMOKE ? 9 : 150));
const TARGET_RATIO = 1.5;

type Result = { dialect: string; samples: number; kids: number; api: Latency; loader: Latency; seedSeconds: number | null };

async function child(dialect: Dialect): Promise<Result> {
  const { server, db, parentId, headers, base, seedSeconds } = await openBenchServer(dialect, { smoke: SMOKE, smokePrefix: "api-smoke-" });
  try {
    const { createSession } = await import("../db/queries/sessions");
    // A fresh session every 100 samples: each token may make 300 calls a minute (app/api/auth.server.ts), and the
    // bench makes two a sample, faster than that.
    const bearer = { Authorization: "" };
    let calls = 0;
    const fresh = async () => (bearer.Authorization = `Bearer ${await createSession(db, parentId, { idleMinutes: 720, absoluteDays: 7 })}`);
    await fresh();
    const kids = await db
      .selectFrom("devices")
      .innerJoin("kid_profiles as k", "k.id", "devices.profile_id")
      .select(["devices.serial_number", "k.id as profileId"])
      .where("k.parent_id", "=", parentId)
      .where("devices.unenrolled_at", "is", null)
      .orderBy("k.name")
      .execute();
    if (!kids.length) throw new Error("the data set has no kid with a phone");
    const isJson = (r: Response, body: string) =>
      r.headers.get("content-type")?.includes("application/json") === true && body.includes("respones_msg");
    const isData = (r: Response, body: string) => r.ok && body.length > 100;
    const api = async (k: (typeof kids)[number], into: number[]) => {
      if (++calls % 100 === 0) await fresh();
      const t: number[] = [];
      await timedGet(`${base}/api/v1/device/kids-list`, bearer, t, isJson);
      await timedGet(
        `${base}/api/v1/device/most-used-apps?${new URLSearchParams({ profileId: k.profileId, serialNumber: k.serial_number, filterType: "week" })}`,
        bearer,
        t,
        isJson,
      );
      into.push(t[0]! + t[1]!);
    };
    const loaderUrl = (k: (typeof kids)[number]) =>
      `${base}/kids-device.data?${new URLSearchParams({ profileId: k.profileId, filter: "week" })}`;
    const loader = async (k: (typeof kids)[number], into: number[]) => {
      await db
        .updateTable("kid_profiles")
        .set((eb) => ({ view_rev: eb("view_rev", "+", 1) }))
        .where("id", "=", k.profileId)
        .execute();
      await timedGet(loaderUrl(k), { Cookie: headers.Cookie! }, into, isData);
    };
    for (const k of kids)
      for (let i = 0; i < 3; i++) {
        await api(k, []);
        await loader(k, []);
      }
    const times = { api: [] as number[], loader: [] as number[] };
    for (let i = 0; i < SAMPLES; i++) {
      const k = kids[i % kids.length]!;
      await api(k, times.api);
      await loader(k, times.loader);
    }
    return { dialect, samples: SAMPLES, kids: kids.length, api: latency(times.api), loader: latency(times.loader), seedSeconds };
  } finally {
    await server.close();
  }
}

if (args.includes("--child")) {
  const r = await child(dialectArg === "postgres" ? "postgres" : "sqlite");
  console.log(`RESULT ${JSON.stringify(r)}`);
  process.exit(0);
} else {
  const out = reporter(JSON_ONLY);
  const dialects = dialectArg ? [dialectArg] : SMOKE ? ["sqlite"] : ["sqlite", "postgres"];
  out.say(
    `bench: /api/v1 kids-list + most-used-apps beside the dashboard's loader on the ${SMOKE ? "demo (smoke: no measurement)" : "--big"} data set · ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"} · Node ${process.version} · ${new Date().toISOString()}`,
  );
  const figures: Record<string, number> = {};
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  for (const { dialect: d, result: r } of runDialects<Result>(fileURLToPath(import.meta.url), "api", dialects, SMOKE ? ["--smoke"] : [])) {
    const ratio = r.api.p50 / r.loader.p50;
    out.say(
      [
        `${d} (${r.samples} samples of each, interleaved, over ${r.kids} kids)`,
        `          ${"API kids-list + most-used-apps:".padEnd(34)}${fmtLatency(r.api)}`,
        `          ${"dashboard loader (.data, miss):".padEnd(34)}${fmtLatency(r.loader)}`,
        `          ratio p50 ${ratio.toFixed(2)} × (target ≤ ${TARGET_RATIO} ×)  ${ratio <= TARGET_RATIO ? "OK" : "OVER TARGET"}`,
      ].join("\n"),
    );
    figures[`${d}.apiP50Ms`] = r.api.p50;
    figures[`${d}.apiP95Ms`] = r.api.p95;
    baselines[`${d}.loaderP50Ms`] = r.loader.p50;
    baselines[`${d}.loaderP95Ms`] = r.loader.p95;
    ratios[`${d}.apiOverLoaderP50`] = ratio;
    targets[`${d}.apiOverLoaderP50`] = { max: TARGET_RATIO };
  }
  process.exitCode = out.finish(benchResult({ bench: "api", figures, baselines, ratios, targets }));
}
