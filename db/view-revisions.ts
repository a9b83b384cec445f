import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "./schema";

/**
 * Tables whose every write moves the shown kid's view_rev (kept in step with migrations
 * 2026-11-22T00-view-revisions, 2026-11-23T02-apps, 2026-11-23T07-time-rules, 2026-11-23T09-requests, 2026-11-23T13-usage-statement-triggers,
 * 2026-11-25T00-usage-writers-bump, 2026-11-26T00-status-statement-triggers and 2026-11-27T00-settings-view-rev; db/view-revisions.test.ts
 * checks it). The page cache (app/utils/page-cache.server.ts: the dashboard and Global Settings) relies on it: a table
 * those pages read belongs here and in a migration.
 * Every table here has triggers that move the revision, except those in BUMPED_BY_WRITERS.
 */
export const VIEW_REV_TABLES = [
  "kid_profiles",
  "devices",
  "profile_apps",
  "category_limits",
  "notifications",
  "device_status",
  "app_usage_hourly",
  "app_usage_daily",
  "global_settings",
  "location_settings",
  "device_locations",
  "device_policies",
  "parent_ratings",
  "bonus_grants",
  "store_categories",
  "catalog_apps",
  "app_requests",
  "kid_time_rules",
] as const;

/**
 * Tables whose writes move the revision for some rows only: device_commands' RING and STOP_SOUND rows (Global
 * Settings' ring state; migration 2026-11-27T00-settings-view-rev). A cached page may read these tables only
 * through those rows (page-cache.test.ts checks the statements), so a Lock does not throw cached pages away.
 */
export const VIEW_REV_ROWS = { device_commands: { column: "type", values: ["RING", "STOP_SOUND"] } } as const;

/**
 * The usage tables have no view-revision trigger (a row trigger per usage row cost a quarter of the ingest's time
 * on SQLite, issue 22): whoever writes them calls `bumpKidsOfPhones` in the same transaction. The writers are
 * the files in USAGE_WRITERS; db/view-revisions.test.ts fails when another file writes these tables and checks
 * that each writer moves the revision.
 */
export const BUMPED_BY_WRITERS = ["app_usage_hourly", "app_usage_daily"] as const;
export const USAGE_WRITERS = [
  "device-service/socket/telemetry.ts",
  "device-service/socket/ingest-usage.ts",
  "db/seed/family.ts",
  "jobs/reports/reports.testing.ts",
] as const;

/** Moves the revision of every kid whose phone is among `deviceIds` (once each), in the caller's transaction. */
export async function bumpKidsOfPhones(db: Kysely<Database> | Transaction<Database>, deviceIds: readonly string[]): Promise<void> {
  const ids = [...new Set(deviceIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    await db
      .updateTable("kid_profiles")
      .set({ view_rev: sql`view_rev + 1` })
      .where("id", "in", (eb) => eb.selectFrom("devices").select("profile_id").where("id", "in", part))
      .execute();
  }
}
