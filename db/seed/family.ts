import { type DB } from "../index";
import { bumpKidsOfPhones } from "../view-revisions";
import { newId, nowIso } from "../../core/ids.server";
import { KIDS_APP_PACKAGE, type CatalogAppSeed } from "./catalog";

/** The demo's password hashes: argon2id at OWASP's minimum, quick to seed. */
export const ARGON = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** A small deterministic PRNG so the demo family looks the same on every machine. */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Inserts rows in chunks that stay under SQLite's and Postgres's bound-parameter limits. */
export async function insertChunked<T extends Record<string, unknown>>(db: DB, table: string, rows: T[], chunk = 500) {
  for (let i = 0; i < rows.length; i += chunk) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await (db as any)
      .insertInto(table)
      .values(rows.slice(i, i + chunk))
      .execute();
  }
}

function hourIso(d: Date): string {
  const c = new Date(d);
  c.setUTCMinutes(0, 0, 0);
  return c.toISOString();
}

export interface KidSeed {
  name: string;
  birthMonth: number;
  birthYear: number;
  serial: string;
  brand: string;
  model: string;
  battery: number;
  healthy: boolean;
  location: [number, number];
}

export interface FamilyOptions {
  parentId: string;
  kids: KidSeed[];
  apps: CatalogAppSeed[];
  appsPerKid: number;
  days: number;
  hoursPerAppDay: number;
  seed: number;
  now: Date;
  notificationsPerKid: number;
}

/** Kids, devices, installed apps with limits, hourly usage and its daily rollup, a location, notifications. */
export async function seedFamily(db: DB, o: FamilyOptions): Promise<string[]> {
  const rand = prng(o.seed);
  const now = nowIso(o.now);
  // The phones were enrolled before their first day of usage: the device protocol refuses usage from
  // more than a day before enrollment (issue 9), and the seed only holds what a phone could have sent.
  const enrolledAt = new Date(o.now.getTime() - Math.max(45, o.days + 1) * 86_400_000).toISOString();
  const profileIds: string[] = [];
  for (const [k, kid] of o.kids.entries()) {
    const profileId = newId();
    const deviceId = newId();
    profileIds.push(profileId);
    await db
      .insertInto("kid_profiles")
      .values({
        id: profileId,
        parent_id: o.parentId,
        name: kid.name,
        birth_month: kid.birthMonth,
        birth_year: kid.birthYear,
        picture_mime: null,
        picture: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("devices")
      .values({
        id: deviceId,
        profile_id: profileId,
        serial_number: kid.serial,
        app_version: "3.8.1",
        brand: kid.brand,
        model: kid.model,
        hardware: "mt6789",
        baseband_version: "MOLY.LR13.R1.TC8.SP.V2.P59",
        manufacturer: kid.brand,
        android_version: "14",
        language_code: "en-GB",
        imei: `35${String(490_000_000_000 + k * 7_919 + o.seed).padStart(13, "0")}`,
        wifi_mac: `02:00:00:${(10 + k).toString(16).padStart(2, "0")}:4b:${(o.seed % 255).toString(16).padStart(2, "0")}`,
        network_operator: "EE",
        phone_number: `+44 7700 90${String(1000 + k).slice(-4)}`,
        total_ram: "4 GB",
        total_storage: "64 GB",
        protection_enabled: 1,
        enable_location_map_display: 1,
        last_activation_at: enrolledAt,
        credential_hash: null,
        fcm_token: null,
        created_at: enrolledAt,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("device_status")
      .values({
        device_id: deviceId,
        battery_percentage: kid.battery,
        battery_checked_at: now,
        wifi_connected: 1,
        kids_app_status: kid.healthy ? "Healthy" : "Unhealthy",
        additional_data: kid.healthy ? null : "Usage access, Display over other apps",
        app_version: "3.8.1",
        protection_state: 1,
        online: 0,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("location_settings")
      .values({ device_id: deviceId, enable_location_tracking: 1, location_tracking_interval: 15, updated_at: now })
      .execute();
    await db
      .insertInto("global_settings")
      .values({ device_id: deviceId, key: "GlobalDailyLimit", value: k === 0 ? "180" : "0", updated_at: now })
      .execute();
    await db
      .insertInto("device_locations")
      .values({
        id: newId(),
        device_id: deviceId,
        latitude: kid.location[0],
        longitude: kid.location[1],
        device_time: new Date(o.now.getTime() - 20 * 60_000).toISOString(),
        received_at: now,
      })
      .execute();

    // Installed apps: the kids app, then a selection from the catalog, plus one manually installed app ('Others').
    // Age-appropriate apps first (what a parent would have allowed), then older-rated ones if the list is short.
    const age = o.now.getUTCFullYear() - kid.birthYear - (o.now.getUTCMonth() + 1 < kid.birthMonth ? 1 : 0);
    const installable = o.apps.filter((a) => !a.is_system_app);
    const pool = installable;
    const chosen: { pkg: string; category: string }[] = [{ pkg: KIDS_APP_PACKAGE, category: "Others" }];
    const fitting = pool.filter((a) => a.min_age <= age).sort(() => rand() - 0.5);
    const rest = pool.filter((a) => a.min_age > age).sort(() => rand() - 0.5);
    for (const a of [...fitting, ...rest].slice(0, o.appsPerKid - 2)) chosen.push({ pkg: a.package_name, category: a.genre_id });
    chosen.push({ pkg: `org.school.homework${k + 1}`, category: "Others" });
    const appRows = chosen.map((c, i) => ({
      id: newId(),
      profile_id: profileId,
      device_id: deviceId,
      package_name: c.pkg,
      play_store_category: c.category,
      enable_daily_limit: i % 4 === 1 ? 1 : 0,
      daily_limit_minutes: i % 4 === 1 ? 30 + 15 * (i % 3) : 0,
      is_app_disabled: i === 5 ? 1 : 0,
      disabled_type: i === 5 ? ("Manually" as const) : null,
      is_installed: 1,
      installation_failure_reason: null,
      created_at: now,
      updated_at: now,
    }));
    await insertChunked(db, "profile_apps", appRows, 200);

    const categories = [...new Set(chosen.map((c) => c.category))].slice(0, 3);
    await insertChunked(
      db,
      "category_limits",
      categories.map((category, i) => ({
        id: newId(),
        profile_id: profileId,
        category,
        enable_daily_limit: i === 0 ? 1 : 0,
        daily_limit_minutes: i === 0 ? 60 : 0,
        is_category_enabled: 1,
        updated_at: now,
      })),
    );

    // Hourly usage: each app is used in a few waking hours a day; an hour never exceeds 60 minutes in total,
    // and the current hour no more than has passed of it.
    const hourly: { device_id: string; package_name: string; hour: string; minutes: number }[] = [];
    const daily = new Map<string, number>();
    const today = new Date(Date.UTC(o.now.getUTCFullYear(), o.now.getUTCMonth(), o.now.getUTCDate()));
    const usedApps = chosen.filter((c) => c.pkg !== KIDS_APP_PACKAGE);
    for (let d = o.days - 1; d >= 0; d--) {
      const dayStart = new Date(today.getTime() - d * 86_400_000);
      const dayKey = dayStart.toISOString().slice(0, 10);
      const hourLoad = new Map<number, number>();
      for (const [ai, app] of usedApps.entries()) {
        const popularity = 1 / (1 + ai * 0.15);
        const hours = Math.max(1, Math.round(o.hoursPerAppDay * (0.5 + rand())));
        for (let h = 0; h < hours; h++) {
          if (rand() > popularity + 0.1) continue;
          const hour = 7 + Math.floor(rand() * 15);
          const at = new Date(dayStart.getTime() + hour * 3_600_000);
          if (at.getTime() > o.now.getTime()) continue;
          const load = hourLoad.get(hour) ?? 0;
          const capacity = Math.min(60, Math.floor((o.now.getTime() - at.getTime()) / 60_000));
          const minutes = Math.min(capacity - load, 2 + Math.floor(rand() * 25));
          if (minutes <= 0) continue;
          hourLoad.set(hour, load + minutes);
          hourly.push({ device_id: deviceId, package_name: app.pkg, hour: hourIso(at), minutes });
          const key = `${dayKey}|${app.pkg}`;
          daily.set(key, (daily.get(key) ?? 0) + minutes);
        }
      }
    }
    // Merge duplicates (same app, same hour) before inserting: the table's key is (device, hour, package).
    const merged = new Map<string, (typeof hourly)[number]>();
    for (const r of hourly) {
      const key = `${r.hour}|${r.package_name}`;
      const prev = merged.get(key);
      if (prev) prev.minutes = Math.min(60, prev.minutes + r.minutes);
      else merged.set(key, r);
    }
    await insertChunked(db, "app_usage_hourly", [...merged.values()], 1000);
    const dailyTotals = new Map<string, number>();
    for (const r of merged.values()) {
      const key = `${r.hour.slice(0, 10)}|${r.package_name}`;
      dailyTotals.set(key, (dailyTotals.get(key) ?? 0) + r.minutes);
    }
    await insertChunked(
      db,
      "app_usage_daily",
      [...dailyTotals.entries()].map(([key, minutes]) => {
        const [day, pkg] = key.split("|");
        return { device_id: deviceId, package_name: pkg, day, minutes };
      }),
      1000,
    );
    await bumpKidsOfPhones(db, [deviceId]); // the usage tables have no view-revision trigger

    const kinds = [
      { type: "install_request", message: (t: string) => `${kid.name} asked to install ${t}.` },
      { type: "limit_reached", message: (t: string) => `${kid.name} reached the daily limit for ${t}.` },
      { type: "app_installed", message: (t: string) => `${t} was installed on ${kid.name}'s phone.` },
      { type: "low_battery", message: () => `${kid.name}'s phone battery is low.` },
    ];
    const titles = new Map(o.apps.map((a) => [a.package_name, a.title]));
    await insertChunked(
      db,
      "notifications",
      Array.from({ length: o.notificationsPerKid }, (_, i) => {
        const kind = kinds[i % kinds.length];
        const app = usedApps[i % usedApps.length];
        return {
          id: newId(),
          profile_id: profileId,
          device_id: deviceId,
          message: kind.message(titles.get(app.pkg) ?? app.pkg),
          type: kind.type,
          package_name: app.pkg,
          created_at: new Date(o.now.getTime() - i * 97 * 60_000).toISOString(),
          read_at: i >= 4 ? now : null,
        };
      }),
    );
  }
  return profileIds;
}
