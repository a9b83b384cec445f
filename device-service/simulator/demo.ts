import type { DB } from "../../db/index";
import { createEnrollmentToken } from "../enrollment";
import { startDemoActivity, type DemoActivity, type DemoActivityOptions } from "./demo-activity";
import { installCandidates, pendingRequestKinds } from "./demo-requests";
import { SimulatedPhone } from "./phone";
import type { DotTarget } from "./private-dns";

export const DEMO_SERIALS = ["DEMO-MIA-0001", "DEMO-LEO-0002"] as const;

export interface DemoPhones {
  phones: SimulatedPhone[];
  /** Each connected phone's demo activity (requests, visits, notifications, battery), when it was asked for. */
  activities: DemoActivity[];
  /** Sends each phone's usage for the hour of `now` (once a minute on its own); resolves when acknowledged. */
  reportUsage(now?: Date): Promise<void>;
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
  opts: {
    ackDelayMs?: number;
    /**
     * Sends a phone its policy once it is connected, as the portal does for a phone that enrolls (server/web.ts passes
     * device-service/policy/store.ts applyPolicy): it arrives as APPLY_POLICY over the protocol, and the phone's
     * enforcer (simulator/enforcer.ts) then decides what the kid may use. Without it the phones keep no policy.
     */
    applyPolicy?: (deviceId: string) => Promise<unknown>;
    /**
     * The demo activity (simulator/demo-activity.ts, SIMULATOR_DEMO_ACTIVITY): shortly after it connects each phone
     * asks for extra time, an install and an uninstall, visits sites, notifies and reports its battery, then now and
     * then again. Off unless given; tests may pass their own schedule, timers, clock and random numbers.
     */
    activity?: Pick<DemoActivityOptions, "schedule" | "timers" | "now" | "random">;
    /**
     * Where the web filter's DNS-over-TLS listens (server/web.ts passes its DoT port and development certificate): each
     * phone sets the Private DNS hostname its policy names and looks its visits up through the filter (issue 54 item 4).
     */
    dot?: DotTarget;
  } = {},
): Promise<DemoPhones> {
  const phones: SimulatedPhone[] = [];
  const activities: DemoActivity[] = [];
  const reporters: ((now: Date) => Promise<void>)[] = [];
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
        "kid_profiles.name as kid_name",
        "device_status.battery_percentage",
        "device_status.kids_app_status",
        "device_status.additional_data",
        "device_locations.latitude",
        "device_locations.longitude",
      ])
      .where("devices.serial_number", "=", serial)
      .executeTakeFirst();
    if (!device) continue;
    const apps = await db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", device.id)
      .where("is_installed", "=", 1)
      .execute();
    const phone = new SimulatedPhone({
      baseUrl,
      serialNumber: serial,
      hardware: { brand: device.brand ?? undefined, model: device.model ?? undefined, manufacturer: device.brand ?? undefined },
      status: {
        batteryPercentage: device.battery_percentage ?? 80,
        kidsAppStatus: device.kids_app_status ?? "Healthy",
        missingPermissions: device.additional_data ? device.additional_data.split(", ") : [],
      },
      location:
        device.latitude !== null && device.longitude !== null ? { latitude: device.latitude, longitude: device.longitude } : undefined,
      ackDelayMs: opts.ackDelayMs,
      dot: opts.dot,
    });
    for (const a of apps) phone.state.installed.add(a.package_name);
    try {
      const { token } = await createEnrollmentToken(db, { profileId: device.profile_id, parentId: device.parent_id, ttlMs: 60_000 });
      await phone.enroll(token);
      await phone.connect();
      phones.push(phone);
      // A little life: while the kid uses the phone, the current hour's usage of the first few apps grows a
      // minute at a time, in turn. Like a real phone's, the hour never holds more minutes than have begun in
      // it (at most 60), counting what is already stored for it (the seed, an earlier run). The usage goes
      // through the phone's enforcer: an app the policy blocks (disabled, over its own or its category's limit,
      // the global limit, a schedule, a break) is not used and accrues nothing, and a limit reached stops its app.
      const enforcer = phone.enforcer;
      const used = [...phone.state.installed].filter((p) => !p.startsWith("com.kidsportal")).slice(0, 3);
      const stored = (since: string, hour?: string) => {
        let q = db
          .selectFrom("app_usage_hourly")
          .select(["package_name as packageName", "hour", "minutes"])
          .where("device_id", "=", device.id);
        q = hour ? q.where("hour", "=", hour) : q.where("hour", ">=", since);
        return q.execute();
      };
      // Today's limits count what was used before this run: the last two days, whatever the family's zone.
      enforcer.knowUsage(await stored(new Date(Date.now() - 2 * 86_400_000).toISOString()));
      if (opts.applyPolicy) await opts.applyPolicy(device.id);
      const hourUsage = new Map<string, number>();
      let currentHour = "";
      let turn = 0;
      reporters.push(async (now) => {
        if (!used.length || !phone.connected) return;
        const hour = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000).toISOString();
        if (hour !== currentHour) {
          const rows = await stored(hour, hour);
          enforcer.knowUsage(rows);
          hourUsage.clear();
          for (const r of rows) hourUsage.set(r.packageName, r.minutes);
          currentHour = hour;
        }
        const total = [...hourUsage.values()].reduce((a, b) => a + b, 0);
        if (total >= Math.min(60, now.getUTCMinutes() + 1)) return;
        // The phone decides first (a schedule starting, the kid's midnight): the kid only opens what is allowed.
        await enforcer.enforce(now);
        const open = used.filter((p) => !enforcer.blockedBy(p));
        if (!open.length) return;
        const packageName = open[turn++ % open.length]!;
        // Reported (absolute minutes for the hour), then enforced: reaching a limit stops the app from the next minute.
        await enforcer.useApp(packageName, 1, now);
        hourUsage.set(packageName, enforcer.minutesInHour(packageName, now));
      });
      if (opts.activity) {
        const titles = await db
          .selectFrom("catalog_apps")
          .select(["package_name", "title"])
          .where("is_system_app", "=", 0)
          .where("package_name", "in", db.selectFrom("profile_apps").select("package_name").where("device_id", "=", device.id))
          .execute();
        activities.push(
          startDemoActivity({
            ...opts.activity,
            phone,
            kidName: device.kid_name,
            used,
            titles: new Map(titles.map((t) => [t.package_name, t.title])),
            pendingKinds: () => pendingRequestKinds(db, device.id),
            installCandidates: () => installCandidates(db, device.id),
            batteryPercentage: phone.statusData().batteryPercentage,
            offsetMs: (phones.length - 1) * 1_500,
            onError: (err, action) =>
              log("demo activity step failed", { serialNumber: serial, action, error: err instanceof Error ? err.message : String(err) }),
          }),
        );
      }
      log("demo phone connected", { serialNumber: serial });
    } catch (err) {
      log("demo phone failed to start", { serialNumber: serial, error: err instanceof Error ? err.message : String(err) });
    }
  }
  const reportUsage = async (now: Date = new Date()) => {
    await Promise.all(reporters.map((r) => r(now)));
  };
  const timer = setInterval(
    () =>
      void reportUsage().catch((err: unknown) => log("demo usage not stored", { error: err instanceof Error ? err.message : String(err) })),
    60_000,
  );
  timer.unref();
  return {
    phones,
    activities,
    reportUsage,
    async stop() {
      clearInterval(timer);
      for (const a of activities) a.stop();
      await Promise.all(phones.map((p) => p.close()));
    },
  };
}
