import type { Kysely } from "kysely";

// Frozen in time: no application imports. Timestamps are ISO-8601 UTC text, booleans 0/1 integers.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("parents")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("parent"))
    .addColumn("use_default_password", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("hide_google", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("two_step_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("email_verified_at", "text")
    .addColumn("kids_report_type", "text", (c) => c.notNull().defaultTo("Weekly"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey()) // sha-256 of the token; the token itself is never stored
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("user_agent", "text")
    .addColumn("ip", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("sessions_parent_idx").on("sessions").column("parent_id").execute();

  await db.schema
    .createTable("kid_profiles")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("birth_month", "integer", (c) => c.notNull())
    .addColumn("birth_year", "integer", (c) => c.notNull())
    .addColumn("sleep_mode", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("picture_mime", "text")
    .addColumn("picture", isPostgres(db) ? "bytea" : "blob")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("kid_profiles_parent_idx").on("kid_profiles").columns(["parent_id", "name"]).execute();

  await db.schema
    .createTable("devices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("serial_number", "text", (c) => c.notNull().unique())
    .addColumn("app_version", "text")
    .addColumn("brand", "text")
    .addColumn("model", "text")
    .addColumn("hardware", "text")
    .addColumn("baseband_version", "text")
    .addColumn("manufacturer", "text")
    .addColumn("android_version", "text")
    .addColumn("language_code", "text")
    .addColumn("imei", "text")
    .addColumn("wifi_mac", "text")
    .addColumn("network_operator", "text")
    .addColumn("phone_number", "text")
    .addColumn("total_ram", "text")
    .addColumn("total_storage", "text")
    .addColumn("protection_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allow_full_device_access", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("enable_location_map_display", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("last_activation_at", "text")
    .addColumn("credential_hash", "text")
    .addColumn("fcm_token", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("devices_profile_idx").on("devices").column("profile_id").execute();

  await db.schema
    .createTable("device_status")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("battery_percentage", "integer")
    .addColumn("battery_checked_at", "text")
    .addColumn("wifi_connected", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("kids_app_status", "text", (c) => c.notNull().defaultTo("Healthy"))
    .addColumn("additional_data", "text")
    .addColumn("app_version", "text")
    .addColumn("protection_state", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("online", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("store_categories")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("sort", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("catalog_apps")
    .addColumn("package_name", "text", (c) => c.primaryKey())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("icon", "text")
    .addColumn("header_image", "text")
    .addColumn("price", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("free", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("score_text", "text")
    .addColumn("reviews", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("content_rating", "text")
    .addColumn("genre", "text")
    .addColumn("genre_id", "text", (c) => c.references("store_categories.id"))
    .addColumn("developer", "text")
    .addColumn("developer_id", "text")
    .addColumn("android_version_text", "text")
    .addColumn("offers_iap", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("ad_supported", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("screenshots", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("description_html", "text")
    .addColumn("recent_changes", "text")
    .addColumn("updated", "text")
    .addColumn("privacy_policy", "text")
    .addColumn("url", "text")
    .addColumn("expert_rating", "text")
    .addColumn("expert_rating_comment", "text")
    .addColumn("is_system_app", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("min_age", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("catalog_apps_genre_idx").on("catalog_apps").column("genre_id").execute();

  await db.schema
    .createTable("profile_apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("play_store_category", "text", (c) => c.notNull().defaultTo("Others"))
    .addColumn("enable_daily_limit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("daily_limit_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_app_disabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("disabled_type", "text")
    .addColumn("is_installed", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("installation_failure_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("profile_apps_device_pkg_uq", ["device_id", "package_name"])
    .execute();
  await db.schema.createIndex("profile_apps_profile_idx").on("profile_apps").column("profile_id").execute();

  await db.schema
    .createTable("category_limits")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("enable_daily_limit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("daily_limit_minutes", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("is_category_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("category_limits_profile_cat_uq", ["profile_id", "category"])
    .execute();

  await db.schema
    .createTable("app_usage_hourly")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("hour", "text", (c) => c.notNull()) // 'YYYY-MM-DDTHH:00:00.000Z'
    .addColumn("minutes", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("app_usage_hourly_pk", ["device_id", "hour", "package_name"])
    .execute();

  await db.schema
    .createTable("app_usage_daily")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("package_name", "text", (c) => c.notNull())
    .addColumn("day", "text", (c) => c.notNull()) // 'YYYY-MM-DD' (UTC)
    .addColumn("minutes", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("app_usage_daily_pk", ["device_id", "day", "package_name"])
    .execute();

  await db.schema
    .createTable("global_settings")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("global_settings_pk", ["device_id", "key"])
    .execute();

  await db.schema
    .createTable("location_settings")
    .addColumn("device_id", "text", (c) => c.primaryKey().references("devices.id").onDelete("cascade"))
    .addColumn("enable_location_tracking", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("location_tracking_interval", "integer", (c) => c.notNull().defaultTo(15))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("device_locations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("latitude", "real", (c) => c.notNull())
    .addColumn("longitude", "real", (c) => c.notNull())
    .addColumn("device_time", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("device_locations_device_idx").on("device_locations").columns(["device_id", "device_time"]).execute();

  await db.schema
    .createTable("notifications")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("package_name", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("read_at", "text")
    .execute();
  await db.schema.createIndex("notifications_device_idx").on("notifications").columns(["device_id", "created_at"]).execute();

  await db.schema
    .createTable("delegations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner_parent_id", "text", (c) => c.notNull().references("parents.id").onDelete("cascade"))
    .addColumn("delegate_email", "text", (c) => c.notNull())
    .addColumn("delegate_name", "text", (c) => c.notNull())
    .addColumn("access_level", "text", (c) => c.notNull().defaultTo("full"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("Pending"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("delegations_email_idx").on("delegations").column("delegate_email").execute();
  await db.schema
    .createTable("delegation_kids")
    .addColumn("delegation_id", "text", (c) => c.notNull().references("delegations.id").onDelete("cascade"))
    .addColumn("profile_id", "text", (c) => c.notNull().references("kid_profiles.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("delegation_kids_pk", ["delegation_id", "profile_id"])
    .execute();
}

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name.toLowerCase().includes("postgres");
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "delegation_kids",
    "delegations",
    "notifications",
    "device_locations",
    "location_settings",
    "global_settings",
    "app_usage_daily",
    "app_usage_hourly",
    "category_limits",
    "profile_apps",
    "catalog_apps",
    "store_categories",
    "device_status",
    "devices",
    "kid_profiles",
    "sessions",
    "parents",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
