/**
 * Tables whose every write moves the shown kid's view_rev (kept in step with migrations
 * 2026-11-22T00-view-revisions, 2026-11-23T02-apps, 2026-11-23T07-time-rules, 2026-11-23T09-requests and 2026-11-23T13-usage-statement-triggers; db/view-revisions.test.ts checks it). The dashboard's page cache
 * (app/utils/page-cache.server.ts) relies on it: a table the dashboard reads belongs here and in a migration.
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
] as const;
