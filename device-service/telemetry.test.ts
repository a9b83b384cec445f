import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { newId, nowIso } from "../core/ids.server";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

/** Telemetry from the phone: status, usage, events, device info and install results (split from device-service.test.ts). */
describe.each(DIALECTS)("device telemetry on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it("child_status updates battery, wifi, health with missing permissions, app version, protection, online", async () => {
    const phone = await h.phone(LEO, {
      status: {
        batteryPercentage: 12,
        wifiConnected: false,
        kidsAppStatus: "Unhealthy",
        missingPermissions: ["Usage access", "Accessibility"],
        appVersion: "3.9.9",
        protectionState: false,
      },
    });
    const s = await h.tdb.db.selectFrom("device_status").selectAll().where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow();
    expect(s).toMatchObject({
      battery_percentage: 12,
      wifi_connected: 0,
      kids_app_status: "Unhealthy",
      additional_data: "Usage access, Accessibility",
      app_version: "3.9.9",
      protection_state: 0,
      online: 1,
    });
    await phone.close();
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("device_status").select("online").where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow())
          .online === 0,
    );
  });

  it("usage: hourly upsert and daily rollup; a retried upload never double counts", async () => {
    const phone = await h.phone(MIA);
    // Today at 03:00 and 04:00 UTC: recent (usage is accepted from enrollment on) and outside the seeded hours.
    const day = new Date().toISOString().slice(0, 10);
    const hour = `${day}T03:00:00.000Z`;
    const frame = {
      buckets: [
        { packageName: "com.sim.usage", hour, minutes: 20 },
        { packageName: "com.sim.usage", hour: `${day}T04:00:00.000Z`, minutes: 5 },
      ],
    };
    await phone.send("usage", frame, "usage-1");
    await phone.send("usage", frame, "usage-1"); // the same upload retried
    await phone.send("usage", frame); // and again under a new id
    const q = () =>
      h.tdb.db
        .selectFrom("app_usage_daily")
        .select("minutes")
        .where("device_id", "=", phone.deviceId!)
        .where("package_name", "=", "com.sim.usage")
        .where("day", "=", day)
        .executeTakeFirstOrThrow();
    expect((await q()).minutes).toBe(25);
    await phone.send("usage", { buckets: [{ packageName: "com.sim.usage", hour: `${day}T03:30:00.000Z`, minutes: 30 }] });
    expect((await q()).minutes).toBe(35);
    const hourly = await h.tdb.db
      .selectFrom("app_usage_hourly")
      .selectAll()
      .where("device_id", "=", phone.deviceId!)
      .where("package_name", "=", "com.sim.usage")
      .orderBy("hour")
      .execute();
    expect(hourly.map((r) => [r.hour, r.minutes])).toEqual([
      [hour, 30],
      [`${day}T04:00:00.000Z`, 5],
    ]);
  });

  it("location, notification, app request, browser visit and device log are stored once per message id", async () => {
    const phone = await h.phone(MIA);
    const dev = phone.deviceId!;
    const db = h.tdb.db;
    await phone.send("location", { latitude: 51.1, longitude: -0.2, deviceTime: "2026-01-05T10:00:00Z" }, "loc-1");
    await phone.send("location", { latitude: 51.1, longitude: -0.2, deviceTime: "2026-01-05T10:00:00Z" }, "loc-1");
    expect(
      await db.selectFrom("device_locations").selectAll().where("device_id", "=", dev).where("latitude", "=", 51.1).execute(),
    ).toHaveLength(1);
    await phone.send(
      "notification",
      { type: "low_battery", message: "Mia's phone battery is low.", packageName: "com.android.settings" },
      "n-1",
    );
    await phone.send(
      "notification",
      { type: "low_battery", message: "Mia's phone battery is low.", packageName: "com.android.settings" },
      "n-1",
    );
    expect(
      await db
        .selectFrom("notifications")
        .selectAll()
        .where("device_id", "=", dev)
        .where("package_name", "=", "com.android.settings")
        .execute(),
    ).toHaveLength(1);
    await phone.send(
      "app_request",
      { requestType: "Extend Time", packageName: "com.duolingo", extendedTime: 30, remarks: "homework" },
      "req-1",
    );
    await phone.send(
      "app_request",
      { requestType: "Extend Time", packageName: "com.duolingo", extendedTime: 30, remarks: "homework" },
      "req-1",
    );
    const reqs = await db.selectFrom("app_requests").selectAll().where("device_id", "=", dev).execute();
    expect(reqs).toHaveLength(1);
    expect(reqs[0]).toMatchObject({ request_type: "Extend Time", status: "Pending", extended_time: 30, remarks: "homework" });
    expect(
      await db
        .selectFrom("notifications")
        .select("message")
        .where("device_id", "=", dev)
        .where("type", "=", "app_request")
        .executeTakeFirstOrThrow(),
    ).toMatchObject({ message: expect.stringMatching(/^Mia asked for 30 more minutes on /) });
    await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T10:00:00Z" }, "b-1");
    await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T10:00:00Z" }, "b-1");
    await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T12:00:00Z" }, "b-2");
    expect(await db.selectFrom("browser_logs").selectAll().where("device_id", "=", dev).execute()).toMatchObject([
      { url: "example.org/x", day: "2026-01-05", visits: 2, blocked_visits: 0, is_blocked: 0 },
    ]);
    await phone.send("device_log", { title: "crash", details: { key: "value", list: ["a", "b"] } }, "log-1");
    expect(
      JSON.parse(
        (await db.selectFrom("device_logs").selectAll().where("device_id", "=", dev).where("title", "=", "crash").executeTakeFirstOrThrow())
          .details,
      ),
    ).toEqual({ key: "value", list: ["a", "b"] });
  });

  it("device_info stores every /device-info field and refuses another phone's serial", async () => {
    const phone = await h.phone(LEO);
    const info = {
      serialNumber: LEO,
      brand: "B",
      model: "M",
      hardware: "H",
      basebandVersion: "BB",
      manufacturer: "MF",
      androidVersion: "15",
      languageCode: "de-DE",
      imei: "1234",
      wifiMac: "aa:bb",
      networkOperator: "O2",
      phoneNumber: "+44 1",
      totalRam: "2 GB",
      totalStorage: "32 GB",
      batteryLevel: 33,
      batteryCheckedAt: "2026-01-05T10:00:00Z",
    };
    await phone.send("device_info", info);
    const d = await h.tdb.db.selectFrom("devices").selectAll().where("id", "=", phone.deviceId!).executeTakeFirstOrThrow();
    expect(d).toMatchObject({
      brand: "B",
      model: "M",
      hardware: "H",
      baseband_version: "BB",
      manufacturer: "MF",
      android_version: "15",
      language_code: "de-DE",
      imei: "1234",
      wifi_mac: "aa:bb",
      network_operator: "O2",
      phone_number: "+44 1",
      total_ram: "2 GB",
      total_storage: "32 GB",
    });
    expect(
      await h.tdb.db.selectFrom("device_status").selectAll().where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow(),
    ).toMatchObject({ battery_percentage: 33, battery_checked_at: "2026-01-05T10:00:00.000Z" });
    await expect(phone.send("device_info", { ...info, serialNumber: MIA })).rejects.toThrow(/SERIAL_MISMATCH/);
  });

  it("install results: success, and every spec 2 §8 failure reason; unknown failures are retried", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA, { failInstalls: { "com.fail.unknown": "INSTALLATION_FAILURE_REASON_UNKNOWN" } });
    const ok = await h.caller(h.demo).device.installApp({ serialNumber: MIA, packageName: "com.ok.install" });
    await waitFor(
      async () =>
        (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", ok.commandId).executeTakeFirst())?.status ===
        "acknowledged",
    );
    expect(
      await h.tdb.db
        .selectFrom("profile_apps")
        .select("is_installed")
        .where("device_id", "=", deviceId)
        .where("package_name", "=", "com.ok.install")
        .executeTakeFirst(),
    ).toEqual({ is_installed: 1 });
    const reasons = [
      "IN_PROGRESS",
      "NOT_FOUND",
      "NOT_COMPATIBLE_WITH_DEVICE",
      "NOT_APPROVED",
      "PERMISSIONS_NOT_ACCEPTED",
      "NOT_AVAILABLE_IN_COUNTRY",
      "NO_LICENSES_REMAINING",
      "NOT_ENROLLED",
      "USER_INVALID",
      "NETWORK_ERROR_UNRELIABLE_CONNECTION",
      "INSUFFICIENT_STORAGE",
    ];
    for (const reason of reasons) {
      await phone.send("install_result", { status: "FAILED", packageName: "com.ok.install", failureReason: reason });
      expect(
        await h.tdb.db
          .selectFrom("profile_apps")
          .select(["installation_failure_reason", "is_installed"])
          .where("device_id", "=", deviceId)
          .where("package_name", "=", "com.ok.install")
          .executeTakeFirst(),
      ).toEqual({ installation_failure_reason: reason, is_installed: 0 });
    }
    await expect(
      phone.send("install_result", { status: "FAILED", packageName: "com.ok.install", failureReason: "SOMETHING_ELSE" }),
    ).rejects.toThrow(/INVALID/);
    // The last reason (storage) waits for the phone to report free storage (device-service/installs.test.ts has each rule).
    expect(
      await h.tdb.db
        .selectFrom("install_retries")
        .select(["status", "attempts"])
        .where("device_id", "=", deviceId)
        .where("package_name", "=", "com.ok.install")
        .execute(),
    ).toEqual([{ status: "waiting_storage", attempts: 2 }]); // after the network failure, its second attempt
    // An unknown failure gets a retry row (the job's state) and a retry job.
    await h.tdb.db
      .insertInto("profile_apps")
      .values({
        id: newId(),
        profile_id: (await h.kid(MIA)).profileId,
        device_id: deviceId,
        package_name: "com.fail.unknown",
        disabled_type: null,
        installation_failure_reason: null,
        is_installed: 0,
        created_at: nowIso(),
        updated_at: nowIso(),
      })
      .execute();
    await h.caller(h.demo).device.installApp({ serialNumber: MIA, packageName: "com.fail.unknown" });
    const retry = await waitFor(async () =>
      h.tdb.db
        .selectFrom("install_retries")
        .selectAll()
        .where("device_id", "=", deviceId)
        .where("package_name", "=", "com.fail.unknown")
        .executeTakeFirst(),
    );
    expect(retry).toMatchObject({ status: "pending", attempts: 1, reason: "INSTALLATION_FAILURE_REASON_UNKNOWN" });
    // The retry job is queued right after its row is written (not in the same transaction): wait for it.
    await waitFor(async () => (await h.runtime.jobs.counts()).find((c) => c.name === "install-retry")!.delayed > 0);
  });
});
