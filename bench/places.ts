/**
 * Places at ingest (issue 55): location reports/s through the gateway's group commit (device-service/socket/
 * ingest-batch.ts) for phones whose kids have 3 places each (the geofence decided for every report: the places and
 * presence read, the presence and place events written), beside the same ingest for phones whose kids have no
 * places, in the same run, on SQLite (a file database, WAL, as the service runs) and on PostgreSQL (a fresh database).
 *
 * Phones: `--phones` per path, each its own family with one kid (with places: the family's Home and the kid's School
 * and Club, 200–300 m). Each phone sends `--reports` locations one after the other, waiting for each acknowledgement
 * (as a phone on its socket does), all phones at once. The places path's walk (WALK) crosses places on purpose: a
 * transition every second report, none from the jitter at the edges.
 * After each path the stored locations and place events are counted: a missing one fails.
 *
 *   npx tsx bench/places.ts [--dialect sqlite|postgres] [--phones 10000] [--reports 5] [--json] [--smoke]
 *
 * Target: places ≥ 0.8× no places on each dialect. Ends with one JSON line (bench/report.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { nowIso } from "../core/ids.server";
import { createDb, migrateToLatest, sqliteHandleOf, type DB, type Dialect } from "../db/index";
import { startCheckpointer } from "../db/checkpointer";
import { createLocalBus } from "../device-service/bus";
import { createIngestBatcher } from "../device-service/socket/ingest-batch";
import type { DeviceRef } from "../device-service/socket/telemetry";
import type { AlertEvent } from "../core/alert-events";
import { benchResult, EXIT_FAILED, EXIT_USAGE, reporter, type Bound } from "./report";

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        dialect: { type: "string" },
        phones: { type: "string" },
        reports: { type: "string" },
        json: { type: "boolean", default: false },
        smoke: { type: "boolean", default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(EXIT_USAGE);
  }
})();
const SMOKE = values.smoke!;
const PHONES = Number(values.phones ?? (SMOKE ? 100 : 10_000));
const REPORTS = Number(values.reports ?? (SMOKE ? 10 : 10));
const DIALECTS: Dialect[] = values.dialect ? [values.dialect as Dialect] : ["sqlite", "postgres"];
const PG_BASE = process.env.BENCH_PG ?? "postgres://postgres@127.0.0.1:5432";
const out = reporter(values.json!);
if (
  ![PHONES, REPORTS].every((n) => Number.isInteger(n) && n > 0) ||
  REPORTS > 100 ||
  DIALECTS.some((d) => d !== "sqlite" && d !== "postgres")
) {
  process.stderr.write("--phones and --reports (≤ 100) are positive integers; --dialect sqlite|postgres.\n");
  process.exit(EXIT_USAGE);
}
const ENROLLED_AT = new Date(Date.now() - 2 * 86_400_000).toISOString();
const HOME = { latitude: 51.5014, longitude: -0.1419 };
const north = (m: number) => ({ latitude: HOME.latitude + m / 111_195, longitude: HOME.longitude });
/**
 * The walk, metres north of home, 10 reports a cycle: far, home, home's edge (jitter, no event), home, school (1.5 km
 * north), school, school's edge, far, far, home. A transition every second report: far more than a real day's.
 */
const WALK = [4_000, 0, 195, 30, 1_500, 1_520, 1_780, 4_000, 4_010, 0];
const BASE_TIME = Date.now() - 3_600_000;

/** One family and kid per phone; with `places`, the family's Home and the kid's School and Club. */
async function provision(db: DB, prefix: string, places: boolean): Promise<DeviceRef[]> {
  const ts = nowIso();
  const refs: DeviceRef[] = Array.from({ length: PHONES }, (_, i) => ({
    id: `${prefix}d${i}`,
    profile_id: `${prefix}k${i}`,
    serial_number: `${prefix}-${i}`,
    enrolled_at: ENROLLED_AT,
  }));
  for (let i = 0; i < refs.length; i += 250) {
    const part = refs.slice(i, i + 250);
    const parent = (r: DeviceRef) => `${r.profile_id}p`;
    await db
      .insertInto("parents")
      .values(
        part.map((r) => ({
          id: parent(r),
          email: `${parent(r)}@bench.test`,
          name: "Bench",
          password_hash: null,
          role: "parent" as const,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
    await db
      .insertInto("kid_profiles")
      .values(
        part.map((r) => ({
          id: r.profile_id,
          parent_id: parent(r),
          name: "Kid",
          birth_month: 1,
          birth_year: 2015,
          picture_mime: null,
          picture: null,
          created_at: ts,
          updated_at: ts,
        })),
      )
      .execute();
    await db
      .insertInto("devices")
      .values(
        part.map((r) => ({
          id: r.id,
          profile_id: r.profile_id,
          serial_number: r.serial_number,
          credential_hash: null,
          created_at: ENROLLED_AT,
          updated_at: ts,
        })),
      )
      .execute();
    if (places)
      await db
        .insertInto("places")
        .values(
          part.flatMap((r) =>
            [
              { id: `${r.profile_id}h`, parent_id: parent(r), profile_id: null, name: "Home", ...HOME, radius_m: 200 },
              { id: `${r.profile_id}s`, parent_id: parent(r), profile_id: r.profile_id, name: "School", ...north(1_500), radius_m: 300 },
              { id: `${r.profile_id}c`, parent_id: parent(r), profile_id: r.profile_id, name: "Club", ...north(-2_500), radius_m: 250 },
            ].map((p) => ({ ...p, created_by: null, created_at: ts, updated_at: ts })),
          ),
        )
        .execute();
  }
  return refs;
}

/**
 * Each path runs ROUNDS times, alternating with the other (no places, places, no places, places), and its best round
 * counts: the first path of a run meets colder caches and a shorter WAL than the second (at 3,000 phones the order
 * alone moved the ratio from 0.6× to 1.6×).
 */
const ROUNDS = 2;

/** Every phone sends its reports one after the other, all phones at once; returns reports/s. */
async function drive(db: DB, phones: DeviceRef[], sink: (e: AlertEvent) => void, round = 0): Promise<number> {
  const batcher = createIngestBatcher({ db, bus: createLocalBus(), log: () => {}, onAlertEvent: sink });
  const t0 = performance.now();
  await Promise.all(
    phones.map(async (p) => {
      for (let r = 0; r < REPORTS; r++) {
        const n = round * REPORTS + r;
        const at = north(WALK[n % WALK.length]);
        await batcher.location(p, `m${n}`, { ...at, accuracy: 15, deviceTime: new Date(BASE_TIME + n * 60_000).toISOString() });
      }
    }),
  );
  const rate = (PHONES * REPORTS) / ((performance.now() - t0) / 1000);
  await batcher.close();
  return rate;
}

async function count(db: DB, table: "device_locations" | "place_events", phones: DeviceRef[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < phones.length; i += 500) {
    const r = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where(
        "device_id",
        "in",
        phones.slice(i, i + 500).map((p) => p.id),
      )
      .executeTakeFirstOrThrow();
    n += Number(r.n);
  }
  return n;
}

/** Events the walk makes per phone: the first far fix decides without one; arrive Home; leave Home and arrive School; leave School; arrive Home. */
function expectedEvents(): number {
  const perStep = [0, 1, 0, 0, 2, 0, 0, 1, 0, 1];
  let n = 0;
  // After the first cycle its far fix leaves Home (where the last one arrived).
  for (let r = 0; r < ROUNDS * REPORTS; r++) n += r >= WALK.length && r % WALK.length === 0 ? 1 : perStep[r % WALK.length];
  return n;
}

async function measure(dialect: Dialect) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "places-bench-"));
  const pgName = `places_bench_${randomBytes(4).toString("hex")}`;
  let url = path.join(dir, "bench.sqlite");
  if (dialect === "postgres") {
    const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    await admin.end();
    url = `${PG_BASE}/${pgName}`;
  }
  const db = createDb({ url });
  const handle = sqliteHandleOf(db);
  const checkpoints = handle ? startCheckpointer(handle) : null;
  try {
    await migrateToLatest(db);
    const none = await provision(db, "n", false);
    const withPlaces = await provision(db, "p", true);
    const warm = await provision(db, "w", true);
    await drive(db, warm.slice(0, 50), () => {});
    let noneEvents = 0;
    let events = 0;
    let noneRate = 0;
    let placesRate = 0;
    for (let round = 0; round < ROUNDS; round++) {
      noneRate = Math.max(noneRate, await drive(db, none, () => noneEvents++, round));
      placesRate = Math.max(placesRate, await drive(db, withPlaces, () => events++, round));
    }
    const missing =
      2 * ROUNDS * PHONES * REPORTS - (await count(db, "device_locations", none)) - (await count(db, "device_locations", withPlaces));
    const stored = await count(db, "place_events", withPlaces);
    return { noneRate, placesRate, events, stored, missing, noneEvents };
  } finally {
    await checkpoints?.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
    if (dialect === "postgres") {
      const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

async function main() {
  out.say(
    `# places bench: ${PHONES} phones × ${REPORTS} location reports per path and round (best of ${ROUNDS}, alternating), 3 places per kid vs none · ${os.cpus().length} × ${os.cpus()[0]?.model}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)}, ${new Date().toISOString()}${SMOKE ? " (smoke: no measurement)" : ""}`,
  );
  const figures: Record<string, number> = { phones: PHONES, reports: REPORTS };
  const baselines: Record<string, number> = {};
  const ratios: Record<string, number> = {};
  const targets: Record<string, Bound> = {};
  const want = PHONES * expectedEvents();
  for (const d of DIALECTS) {
    const r = await measure(d);
    figures[`${d}.placesReportsPerS`] = r.placesRate;
    figures[`${d}.placeEvents`] = r.events;
    figures[`${d}.placeEventsMissing`] = Math.abs(want - r.stored) + Math.abs(r.events - r.stored) + r.noneEvents;
    figures[`${d}.reportsMissing`] = r.missing;
    baselines[`${d}.noPlacesReportsPerS`] = r.noneRate;
    ratios[`${d}.placesVsNoPlaces`] = r.placesRate / r.noneRate;
    targets[`${d}.placesVsNoPlaces`] = { min: 0.8 };
    targets[`${d}.reportsMissing`] = { max: 0 };
    targets[`${d}.placeEventsMissing`] = { max: 0 };
    const k = (x: number) => Math.round(x).toLocaleString("en");
    out.say(
      `${d}: 3 places ${k(r.placesRate)} reports/s (${(r.placesRate / r.noneRate).toFixed(3)}× no places; target ≥ 0.8×) · no places ${k(r.noneRate)} reports/s · ${k(r.events)} arrivals and departures (${k(want)} expected, ${k(r.stored)} stored) · reports missing ${r.missing}`,
    );
  }
  process.exit(out.finish(benchResult({ bench: "places", figures, baselines, ratios, targets })));
}

main().catch((err: unknown) => {
  process.stderr.write(`places bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(EXIT_FAILED);
});
