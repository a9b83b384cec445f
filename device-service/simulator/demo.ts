import type { DB } from "../../db/index";
import { createEnrollmentToken } from "../enrollment";
import { SimulatedPhone } from "./phone";

export const DEMO_SERIALS = ["DEMO-MIA-0001", "DEMO-LEO-0002"] as const;

export interface DemoPhones {
  phones: SimulatedPhone[];
  stop(): Promise<void>;
}

/**
 * `npm start` runs the seeded demo family's phones through the simulator, in-process. The seed gives them
 * no credential; here the service mints a one-time enrollment token directly (it never leaves this
 * process) and each phone enrolls over HTTP like a real one, so its credential exists only in memory
 * and is rotated on every start.
 */
export async function startDemoPhones(
  db: DB,
  baseUrl: string,
  log: (msg: string, extra?: Record<string, unknown>) => void,
  opts: { ackDelayMs?: number } = {},
): Promise<DemoPhones> {
  const phones: SimulatedPhone[] = [];
  const timers: NodeJS.Timeout[] = [];
  for (const serial of DEMO_SERIALS) {
    const device = await db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .leftJoin("device_status", "device_status.device_id", "devices.id")
      .leftJoin("device_locations", (j) => j.onRef("device_locations.device_id", "=", "devices.id"))
      .select([
        "devices.id",
        "devices.profile_id",
        "devices.brand",
        "devices.model",
        "kid_profiles.parent_id",
        "device_status.battery_percentage",
        "device_status.kids_app_status",
        "device_status.additional_data",
        "device_locations.latitude",
        "device_locations.longitude",
      ])
      .where("devices.serial_number", "=", serial)
      .executeTakeFirst();
    if (!device) continue;
    const apps = await db.selectFrom("profile_apps").select("package_name").where("device_id", "=", device.id).where("is_installed", "=", 1).execute();
    const phone = new SimulatedPhone({
      baseUrl,
      serialNumber: serial,
      hardware: { brand: device.brand ?? undefined, model: device.model ?? undefined, manufacturer: device.brand ?? undefined },
      status: {
        batteryPercentage: device.battery_percentage ?? 80,
        kidsAppStatus: device.kids_app_status ?? "Healthy",
        missingPermissions: device.additional_data ? device.additional_data.split(", ") : [],
      },
      location: device.latitude !== null && device.longitude !== null ? { latitude: device.latitude, longitude: device.longitude } : undefined,
      ackDelayMs: opts.ackDelayMs,
    });
    for (const a of apps) phone.state.installed.add(a.package_name);
    try {
      const { token } = await createEnrollmentToken(db, { profileId: device.profile_id, parentId: device.parent_id, ttlMs: 60_000 });
      await phone.enroll(token);
      await phone.connect();
      phones.push(phone);
      // A little life: the current hour's usage of the first few apps grows a minute at a time.
      const used = [...phone.state.installed].filter((p) => !p.startsWith("com.kidsportal")).slice(0, 3);
      let minute = new Date().getUTCMinutes();
      const t = setInterval(() => {
        minute = Math.min(60, minute + 1);
        const hour = new Date();
        hour.setUTCMinutes(0, 0, 0);
        const per = Math.floor(minute / Math.max(1, used.length));
        if (used.length && phone.connected)
          void phone.send("usage", { buckets: used.map((packageName) => ({ packageName, hour: hour.toISOString(), minutes: Math.min(60, per) })) }).catch(() => {});
      }, 60_000);
      t.unref();
      timers.push(t);
      log("demo phone connected", { serialNumber: serial });
    } catch (err) {
      log("demo phone failed to start", { serialNumber: serial, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return {
    phones,
    async stop() {
      for (const t of timers) clearInterval(t);
      await Promise.all(phones.map((p) => p.close()));
    },
  };
}
