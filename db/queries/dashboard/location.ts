import type { DB } from "../../index";

/** Location tracking settings of the kid's phone (location settings page). */

export async function getLocationSettings(db: DB, deviceId: string) {
  const r = await db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst();
  return {
    enableLocationTracking: Boolean(r?.enable_location_tracking ?? 0),
    locationTrackingInterval: Number(r?.location_tracking_interval ?? 0),
  };
}
