import type { DB } from "../../db/index";
import { bumpKidsOfPhones } from "../../db/view-revisions";
import { newId } from "../../core/ids.server";
import { createParent } from "../../db/queries/parents";
import { seedCatalog } from "../../db/seed/index";

/** Report tests' fixture: a family (parent, kid, phone) with a frequency and a time zone, joined long ago. */
export async function makeFamily(db: DB, o: { name: string; kind: "Off" | "Weekly" | "Monthly"; tz: string; joined?: string }) {
  await seedCatalog(db);
  const parent = await createParent(db, {
    email: `${o.name.toLowerCase()}-${newId()}@example.com`,
    name: `${o.name}'s parent`,
    passwordHash: null,
  });
  await db.updateTable("parents").set({ kids_report_type: o.kind, time_zone: o.tz }).where("id", "=", parent.id).execute();
  const joined = o.joined ?? "2026-01-01T00:00:00.000Z";
  const profileId = newId();
  const deviceId = newId();
  await db
    .insertInto("kid_profiles")
    .values({
      id: profileId,
      parent_id: parent.id,
      name: o.name,
      birth_month: 1,
      birth_year: 2015,
      picture_mime: null,
      picture: null,
      created_at: joined,
      updated_at: joined,
    })
    .execute();
  await db
    .insertInto("devices")
    .values({
      id: deviceId,
      profile_id: profileId,
      serial_number: `SER-${newId()}`,
      app_version: null,
      brand: null,
      model: null,
      hardware: null,
      baseband_version: null,
      manufacturer: null,
      android_version: null,
      language_code: null,
      imei: null,
      wifi_mac: null,
      network_operator: null,
      phone_number: null,
      total_ram: null,
      total_storage: null,
      last_activation_at: null,
      credential_hash: null,
      fcm_token: null,
      created_at: joined,
      updated_at: joined,
    })
    .execute();
  const apps = [
    { pkg: "com.mojang.minecraftpe", category: "GAME_ARCADE", limit: 60 },
    { pkg: "org.khanacademy.android", category: "EDUCATION", limit: 0 },
  ];
  for (const a of apps) {
    await db
      .insertInto("profile_apps")
      .values({
        id: newId(),
        profile_id: profileId,
        device_id: deviceId,
        package_name: a.pkg,
        play_store_category: a.category,
        enable_daily_limit: a.limit ? 1 : 0,
        daily_limit_minutes: a.limit,
        disabled_type: null,
        installation_failure_reason: null,
        created_at: joined,
        updated_at: joined,
      })
      .execute();
  }
  return { parent, profileId, deviceId, apps: apps.map((a) => a.pkg) };
}

/** Hour buckets and their daily rollup, as the telemetry stores them. */
export async function addUsage(db: DB, deviceId: string, rows: [hour: string, pkg: string, minutes: number][]) {
  for (const [hour, pkg, minutes] of rows) {
    await db
      .insertInto("app_usage_hourly")
      .values({ device_id: deviceId, package_name: pkg, hour: new Date(hour).toISOString(), minutes })
      .execute();
    const day = new Date(hour).toISOString().slice(0, 10);
    await db
      .insertInto("app_usage_daily")
      .values({ device_id: deviceId, package_name: pkg, day, minutes })
      .onConflict((oc) =>
        oc
          .columns(["device_id", "day", "package_name"])
          .doUpdateSet((eb) => ({ minutes: eb("app_usage_daily.minutes", "+", eb.ref("excluded.minutes")) })),
      )
      .execute();
  }
  await bumpKidsOfPhones(db, [deviceId]); // the usage tables have no view-revision trigger
}
