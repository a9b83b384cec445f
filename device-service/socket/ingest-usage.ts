import { sql, type Transaction } from "kysely";
import type SQLite from "better-sqlite3";
import type { Database } from "../../db/schema";
import { sqliteHandleOf, type DB } from "../../db/index";
import { lockPhonesForUsage, MAX_MINUTES_PER_HOUR, ProtocolError } from "./telemetry";

/**
 * The usage half of a group commit (device-service/socket/ingest-batch.ts), inside the batch's transaction.
 *
 * The daily rollup is INCREMENTAL: each (phone, hour, app) row's old hourly value is read once, the new one
 * written, and the difference added to its (phone, day, app) daily row. A resend of the same absolute minutes
 * therefore adds 0; the same key twice in one batch is written once (the later upload wins, deduplicated by the
 * caller). This keeps the daily rows equal to the sum of their hours as long as every writer of the hours keeps
 * them so; the per-message path (`ingestUsage` in telemetry.ts) still re-derives the affected days from the hours
 * in full, and so heals a daily row that drifted.
 *
 * Usage is physical: after the write, an hour of a phone with more than 60 minutes throws TOO_MANY_MINUTES and
 * the caller's transaction rolls back (the batcher then retries item by item, so only the bad upload fails).
 *
 * SQLite: prepared single-row statements on the connection the transaction holds (no query building, no
 * multi-row statement compiled per batch). PostgreSQL: one statement for hours + days from unnest() arrays
 * (a data-modifying CTE: the left join reads the hours as they were before the statement), after locking the
 * batch's phones so that another writer's open transaction cannot make those hours stale (lockPhonesForUsage).
 */

/** One phone's hour in a batch: each app's minutes (already deduplicated, the later upload winning). */
export type UsageHour = {
  device_id: string;
  hour: string;
  apps: Map<string, number>;
};
type Tx = Transaction<Database>;

export async function writeUsageRows(db: DB, trx: Tx, hours: UsageHour[]): Promise<void> {
  if (!hours.length) return;
  const handle = sqliteHandleOf(db);
  if (handle) writeSqlite(handle, hours);
  else await writePostgres(trx, hours);
}

const tooMany = (hour: string, minutes: number) =>
  new ProtocolError(
    "TOO_MANY_MINUTES",
    `An hour has at most ${MAX_MINUTES_PER_HOUR} minutes of use on a phone; the hour from ${hour} would have ${minutes}.`,
  );

type Statements = {
  hourRows: SQLite.Statement;
  hour: SQLite.Statement;
  day: SQLite.Statement;
  bump: SQLite.Statement;
};
const prepared = new WeakMap<SQLite.Database, Statements>();

function statements(handle: SQLite.Database): Statements {
  let s = prepared.get(handle);
  if (!s) {
    s = {
      hourRows: handle.prepare("SELECT package_name, minutes FROM app_usage_hourly WHERE device_id = ? AND hour = ?").raw(),
      hour: handle.prepare(
        "INSERT INTO app_usage_hourly (device_id, package_name, hour, minutes) VALUES (?, ?, ?, ?) ON CONFLICT (device_id, hour, package_name) DO UPDATE SET minutes = excluded.minutes",
      ),
      day: handle.prepare(
        "INSERT INTO app_usage_daily (device_id, package_name, day, minutes) VALUES (?, ?, ?, ?) ON CONFLICT (device_id, day, package_name) DO UPDATE SET minutes = app_usage_daily.minutes + excluded.minutes",
      ),
      // The usage tables have no view-revision trigger: the batch moves each of its kids' revision once (db/view-revisions.ts).
      bump: handle.prepare(
        "UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN (SELECT profile_id FROM devices WHERE id IN (SELECT value FROM json_each(?)))",
      ),
    };
    prepared.set(handle, s);
  }
  return s;
}

/**
 * One read per (phone, hour) of the batch gives every app's minutes in that hour before the write: the old
 * value of each row (for the daily delta) and the hour's total after the write (for the 60-minute check,
 * done before anything is written).
 */
function writeSqlite(handle: SQLite.Database, hours: UsageHour[]): void {
  const st = statements(handle);
  // The days' deltas by phone, day and app (nested maps: no key string per row).
  const days = new Map<string, Map<string, Map<string, number>>>();
  for (const { device_id, hour, apps } of hours) {
    const before = new Map(st.hourRows.all(device_id, hour) as [string, number][]);
    let total = 0;
    for (const m of before.values()) total += m;
    for (const [pkg, minutes] of apps) total += minutes - (before.get(pkg) ?? 0);
    if (total > MAX_MINUTES_PER_HOUR) throw tooMany(hour, total);
    let byDay = days.get(device_id);
    if (!byDay) days.set(device_id, (byDay = new Map()));
    const day = hour.slice(0, 10);
    let deltas = byDay.get(day);
    if (!deltas) byDay.set(day, (deltas = new Map()));
    for (const [pkg, minutes] of apps) deltas.set(pkg, (deltas.get(pkg) ?? 0) + minutes - (before.get(pkg) ?? 0));
  }
  for (const { device_id, hour, apps } of hours) for (const [pkg, minutes] of apps) st.hour.run(device_id, pkg, hour, minutes);
  for (const [device_id, byDay] of days)
    for (const [day, deltas] of byDay) for (const [pkg, delta] of deltas) st.day.run(device_id, pkg, day, delta);
  st.bump.run(JSON.stringify([...days.keys()]));
}

async function writePostgres(trx: Tx, hours: UsageHour[]): Promise<void> {
  const rows = hours.flatMap(({ device_id, hour, apps }) =>
    [...apps].map(([package_name, minutes]) => ({ device_id, package_name, hour, minutes })),
  );
  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  // The phones first: the statement below reads their hours as committed once the lock is held (telemetry.ts).
  await lockPhonesForUsage(trx, col("device_id"));
  // Every part of the statement sees the tables as they were before it: the left join gives the old hours, and
  // an hour's total after the write is its total before plus the batch's deltas in it.
  const over = await sql<{ hour: string; minutes: number }>`
    WITH input AS (
      SELECT * FROM unnest(${col("device_id")}::text[], ${col("package_name")}::text[], ${col("hour")}::text[], ${col("minutes")}::int[]) AS t(device_id, package_name, hour, minutes)
    ), delta AS (
      SELECT i.device_id, i.package_name, i.hour, i.minutes - coalesce(h.minutes, 0) AS delta
      FROM input i LEFT JOIN app_usage_hourly h ON h.device_id = i.device_id AND h.hour = i.hour AND h.package_name = i.package_name
    ), hours AS (
      INSERT INTO app_usage_hourly (device_id, package_name, hour, minutes) SELECT device_id, package_name, hour, minutes FROM input
      ON CONFLICT (device_id, hour, package_name) DO UPDATE SET minutes = excluded.minutes
    ), days AS (
      INSERT INTO app_usage_daily (device_id, package_name, day, minutes)
      SELECT device_id, package_name, substr(hour, 1, 10), sum(delta) FROM delta GROUP BY device_id, package_name, substr(hour, 1, 10)
      ON CONFLICT (device_id, day, package_name) DO UPDATE SET minutes = app_usage_daily.minutes + excluded.minutes
    ), bumped AS (
      -- The usage tables have no view-revision trigger: each kid of the batch's phones moves once (db/view-revisions.ts).
      UPDATE kid_profiles SET view_rev = view_rev + 1 WHERE id IN (SELECT profile_id FROM devices WHERE id = ANY(${[...new Set(col("device_id"))]}::text[]))
    ), totals AS (
      SELECT t.hour, t.delta + coalesce((SELECT sum(h.minutes) FROM app_usage_hourly h WHERE h.device_id = t.device_id AND h.hour = t.hour), 0) AS minutes
      FROM (SELECT device_id, hour, sum(delta) AS delta FROM delta GROUP BY device_id, hour) t
    )
    SELECT hour, minutes FROM totals WHERE minutes > ${MAX_MINUTES_PER_HOUR} LIMIT 1`.execute(trx);
  const bad = over.rows[0];
  if (bad) throw tooMany(bad.hour, Number(bad.minutes));
}
