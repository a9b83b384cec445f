import type { DB } from "../../index";
import { cleanPhoneValue } from "../../../core/phone-text";

/** The device info page: the phone's hardware and its last battery reading. */

export async function getDeviceDetails(db: DB, deviceId: string) {
  const row = await db
    .selectFrom("devices")
    .leftJoin("device_status", "device_status.device_id", "devices.id")
    .select([
      "devices.id",
      "devices.serial_number",
      "devices.brand",
      "devices.hardware",
      "devices.baseband_version",
      "devices.manufacturer",
      "devices.model",
      "devices.android_version",
      "devices.language_code",
      "devices.imei",
      "devices.wifi_mac",
      "devices.network_operator",
      "devices.phone_number",
      "devices.total_ram",
      "devices.total_storage",
      "device_status.battery_percentage",
      "device_status.battery_checked_at",
    ])
    .where("devices.id", "=", deviceId)
    .executeTakeFirst();
  // The phone's own words: rows stored before phone text was cleaned at ingest are shown cleaned (core/phone-text.ts).
  return row && cleanPhoneValue(row);
}
