import { sql } from "kysely";
import { DEFAULT_TIME_ZONE, safeTimeZone } from "../../../core/zoned-time";
import type { DB } from "../../index";
import { cleanPhoneTextOrNull } from "../../../core/phone-text";

/**
 * Read models of the kid dashboard and the device pages. Callers have already checked kid access
 * (requireKidAccess); every function here is scoped by the profile or device id it is given.
 * This file: the kid header (profile, first device, live status, last location), the device guard, the picture.
 */

export interface KidOverview {
  profile: {
    id: string;
    name: string;
    birthMonth: number;
    birthYear: number;
    sleepMode: boolean;
    hasPicture: boolean;
    updatedAt: string;
  };
  device: {
    id: string;
    serialNumber: string;
    appVersion: string | null;
    brand: string | null;
    model: string | null;
    protectionEnabled: boolean;
    allowFullDeviceAccess: boolean;
    enableLocationMapDisplay: boolean;
    lastActivationAt: string | null;
    batteryPercentage: number | null;
    batteryCheckedAt: string | null;
    wifiConnected: boolean;
    kidsAppStatus: string;
    additionalData: string | null;
    online: boolean;
    statusUpdatedAt: string | null;
    lastLocation: { latitude: number; longitude: number; deviceTime: string } | null;
  } | null;
  totalDevices: number;
  /** The family's time zone (the kid's parent's), as kidTimeZone reads it: the kid's "today". */
  timeZone: string;
}

/** The kid's profile with its (first enrolled) device, its live status and its last location. Removed phones are history only. */
export async function getKidOverview(db: DB, profileId: string): Promise<KidOverview | null> {
  // Profile (with the family's time zone), devices and the first device's last location in parallel (one round
  // trip on PostgreSQL).
  const [profile, devices, loc] = await Promise.all([
    db
      .selectFrom("kid_profiles")
      .innerJoin("parents", "parents.id", "kid_profiles.parent_id")
      .select([
        "kid_profiles.id",
        "kid_profiles.name",
        "kid_profiles.birth_month",
        "kid_profiles.birth_year",
        "kid_profiles.sleep_mode",
        "kid_profiles.updated_at",
        sql<number>`case when kid_profiles.picture is null then 0 else 1 end`.as("has_picture"),
        "parents.time_zone",
      ])
      .where("kid_profiles.id", "=", profileId)
      .executeTakeFirst(),
    db
      .selectFrom("devices")
      .leftJoin("device_status", "device_status.device_id", "devices.id")
      .select([
        "devices.id",
        "devices.serial_number",
        "devices.app_version",
        "devices.brand",
        "devices.model",
        "devices.protection_enabled",
        "devices.allow_full_device_access",
        "devices.enable_location_map_display",
        "devices.last_activation_at",
        "device_status.battery_percentage",
        "device_status.battery_checked_at",
        "device_status.wifi_connected",
        "device_status.kids_app_status",
        "device_status.additional_data",
        "device_status.online",
        "device_status.updated_at as status_updated_at",
        "device_status.app_version as status_app_version",
      ])
      .where("devices.profile_id", "=", profileId)
      .where("devices.unenrolled_at", "is", null)
      .orderBy("devices.created_at")
      .orderBy("devices.id")
      .execute(),
    db
      .selectFrom("device_locations")
      .select(["device_id", "latitude", "longitude", "device_time"])
      .where("device_id", "=", (eb) =>
        eb
          .selectFrom("devices")
          .select("devices.id")
          .where("devices.profile_id", "=", profileId)
          .where("devices.unenrolled_at", "is", null)
          .orderBy("devices.created_at")
          .orderBy("devices.id")
          .limit(1),
      )
      .orderBy("device_time", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  if (!profile) return null;
  const d = devices[0];
  const lastLocation: NonNullable<KidOverview["device"]>["lastLocation"] =
    d && loc && loc.device_id === d.id
      ? { latitude: Number(loc.latitude), longitude: Number(loc.longitude), deviceTime: loc.device_time }
      : null;
  return {
    profile: {
      id: profile.id,
      name: profile.name,
      birthMonth: profile.birth_month,
      birthYear: profile.birth_year,
      sleepMode: Boolean(profile.sleep_mode),
      hasPicture: Boolean(Number(profile.has_picture)),
      updatedAt: profile.updated_at,
    },
    device: d
      ? {
          id: d.id,
          serialNumber: d.serial_number,
          appVersion: d.status_app_version ?? d.app_version,
          // Hardware names and status stored before phone text was cleaned at ingest (core/phone-text.ts).
          brand: cleanPhoneTextOrNull(d.brand),
          model: cleanPhoneTextOrNull(d.model),
          protectionEnabled: Boolean(d.protection_enabled),
          allowFullDeviceAccess: Boolean(d.allow_full_device_access),
          enableLocationMapDisplay: Boolean(d.enable_location_map_display),
          lastActivationAt: d.last_activation_at,
          batteryPercentage: d.battery_percentage == null ? null : Number(d.battery_percentage),
          batteryCheckedAt: d.battery_checked_at ?? null,
          wifiConnected: Boolean(d.wifi_connected),
          kidsAppStatus: cleanPhoneTextOrNull(d.kids_app_status) ?? "Unknown",
          additionalData: cleanPhoneTextOrNull(d.additional_data),
          online: Boolean(d.online),
          statusUpdatedAt: d.status_updated_at ?? null,
          lastLocation,
        }
      : null,
    totalDevices: devices.length,
    timeZone: safeTimeZone(profile.time_zone ?? DEFAULT_TIME_ZONE),
  };
}

/** The device with this serial number, only when it belongs to this kid. */
export async function findKidDevice(db: DB, profileId: string, serialNumber: string) {
  return db
    .selectFrom("devices")
    .selectAll()
    .where("serial_number", "=", serialNumber)
    .where("profile_id", "=", profileId)
    .executeTakeFirst();
}

export async function getKidPicture(db: DB, profileId: string) {
  return db.selectFrom("kid_profiles").select(["picture", "picture_mime", "updated_at"]).where("id", "=", profileId).executeTakeFirst();
}
