import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uninstalledBy } from "../db/queries/parent-profile";
import { DIALECTS } from "../db/index.testing";
import { latestPolicy } from "./policy/store";
import { COMING_SOON_SUFFIX, KIDS_APP_MESSAGE, LIMIT_ABOVE_ZERO, STORE_DETAIL_NOT_FOUND, SYSTEM_APP_MESSAGE } from "./store";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

const MIA = "DEMO-MIA-0001";

/** The store's install and uninstall (spec 2 §4, §5), through the procedures and the simulated phone. */
describe.each(DIALECTS)("store install and uninstall on %s", (dialect) => {
  let h: Harness;
  /** Free, non-system catalogue apps not on Mia's phone: one per test that installs. */
  let free: string[] = [];
  beforeAll(async () => {
    h = await startHarness({ dialect });
    const { deviceId } = await h.kid(MIA);
    const on = new Set(
      (await h.tdb.db.selectFrom("profile_apps").select("package_name").where("device_id", "=", deviceId).execute()).map(
        (r) => r.package_name,
      ),
    );
    free = (
      await h.tdb.db
        .selectFrom("catalog_apps")
        .select("package_name")
        .where("free", "=", 1)
        .where("is_system_app", "=", 0)
        .orderBy("package_name")
        .execute()
    )
      .map((r) => r.package_name)
      .filter((p) => !on.has(p) && p !== "com.kidsportal.kidsapp");
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const app = async (deviceId: string, packageName: string) =>
    h.tdb.db
      .selectFrom("profile_apps")
      .selectAll()
      .where("device_id", "=", deviceId)
      .where("package_name", "=", packageName)
      .executeTakeFirst();

  it("Save and Install: master application, then the profile application (FORCE_INSTALLED, limit), INSTALL_APP through the outbox; installed and the limit reaches the phone", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const pkg = free[0]!;
    const r = await h.caller(h.demo).store.install({ serialNumber: MIA, packageName: pkg, enableDailyLimit: true, dailyLimitTime: 30 });
    expect(r.respones_msg).toMatch(/^Installing .+ on Mia's phone with a daily limit of 30 minutes\./);
    const master = await h.tdb.db.selectFrom("master_applications").selectAll().where("package_name", "=", pkg).executeTakeFirstOrThrow();
    expect(master).toMatchObject({ type: "Android" });
    // No icon base among the service's dependencies: the icon is drawn locally (whatever the process env says).
    expect(master.app_icon).toMatch(/^data:image\/svg\+xml/);
    expect(JSON.parse(master.application_details)).toMatchObject({ title: expect.any(String) });
    const cmd = await phone.waitForCommand("INSTALL_APP", 5_000, (c) => c.payload.packageName === pkg);
    expect(cmd.payload).toMatchObject({ packageName: pkg, installType: "FORCE_INSTALLED" });
    await waitFor(async () => (await app(deviceId, pkg))?.install_state === "installed");
    expect(await app(deviceId, pkg)).toMatchObject({
      is_installed: 1,
      install_type: "FORCE_INSTALLED",
      enable_daily_limit: 1,
      daily_limit_minutes: 30,
      installation_failure_reason: null,
    });
    expect(phone.state.installed.has(pkg)).toBe(true);
    const policy = await waitFor(async () => {
      const p = await latestPolicy(h.tdb.db, deviceId);
      return p?.doc.apps.find((a) => a.packageName === pkg);
    });
    expect(policy.dailyLimitMinutes).toBe(30);
    // A second master application is never made for the same package.
    expect(await h.tdb.db.selectFrom("master_applications").select("product_id").where("package_name", "=", pkg).execute()).toHaveLength(1);
  });

  it("the master application's icon comes from the icon base handed to the service (CATALOG_ICON_BASE_URL via createServices)", async () => {
    const pkg = free[4]!;
    h.runtime.deps.catalogIconBase = "https://icons.example/play";
    try {
      await h.caller(h.demo).store.install({ serialNumber: MIA, packageName: pkg, enableDailyLimit: false, dailyLimitTime: 0 });
    } finally {
      h.runtime.deps.catalogIconBase = undefined;
    }
    const master = await h.tdb.db
      .selectFrom("master_applications")
      .select("app_icon")
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
    expect(master.app_icon).toBe(`https://icons.example/play/${pkg}.png`);
  });

  it("Skip & Install installs with no limit; uninstall deletes the profile application and the phone removes the app", async () => {
    const { deviceId } = await h.kid(MIA);
    const phone = await h.phone(MIA);
    const pkg = free[1]!;
    await h.caller(h.demo).store.install({ serialNumber: MIA, packageName: pkg, enableDailyLimit: false, dailyLimitTime: 0 });
    await waitFor(async () => (await app(deviceId, pkg))?.is_installed === 1);
    // The install and the uninstall name the parent who sent them (issue 18).
    expect(await app(deviceId, pkg)).toMatchObject({ enable_daily_limit: 0, daily_limit_minutes: 0, updated_by: h.demo.id });
    const r = await h.caller(h.demo).store.uninstall({ serialNumber: MIA, packageName: pkg });
    expect(r.respones_msg).toMatch(/^Uninstalling .+ from Mia's phone\./);
    expect(await app(deviceId, pkg)).toBeUndefined();
    await phone.waitForCommand("UNINSTALL_APP", 5_000, (c) => c.payload.packageName === pkg);
    await waitFor(async () => !phone.state.installed.has(pkg));
    expect(await uninstalledBy(h.tdb.db, deviceId, pkg)).toMatchObject({ id: h.demo.id });
    const p = await latestPolicy(h.tdb.db, deviceId);
    expect(p?.doc.apps.some((a) => a.packageName === pkg)).toBe(false);
  });

  it("refuses with the spec's messages: kids app, system app, not in the store, paid, a limit of 0, not installed", async () => {
    const c = h.caller(h.demo);
    const { deviceId } = await h.kid(MIA);
    await expect(c.store.uninstall({ serialNumber: MIA, packageName: "com.kidsportal.kidsapp" })).rejects.toThrow(KIDS_APP_MESSAGE);
    const system = await h.tdb.db
      .selectFrom("catalog_apps")
      .select("package_name")
      .where("is_system_app", "=", 1)
      .executeTakeFirstOrThrow();
    await expect(c.store.uninstall({ serialNumber: MIA, packageName: system.package_name })).rejects.toThrow(SYSTEM_APP_MESSAGE);
    await expect(
      c.store.install({ serialNumber: MIA, packageName: "org.not.in.store", enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toThrow(STORE_DETAIL_NOT_FOUND);
    const onPhone = h.tdb.db.selectFrom("profile_apps").select("package_name").where("device_id", "=", deviceId);
    const paid = await h.tdb.db
      .selectFrom("catalog_apps")
      .select(["package_name", "title"])
      .where("price", ">", 0)
      .where("package_name", "not in", onPhone)
      .executeTakeFirstOrThrow();
    await expect(
      c.store.install({ serialNumber: MIA, packageName: paid.package_name, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toThrow(`${paid.title}${COMING_SOON_SUFFIX}`);
    await expect(c.store.install({ serialNumber: MIA, packageName: free[2]!, enableDailyLimit: true, dailyLimitTime: 0 })).rejects.toThrow(
      LIMIT_ABOVE_ZERO,
    );
    await expect(c.store.install({ serialNumber: MIA, packageName: free[2]!, enableDailyLimit: true, dailyLimitTime: 20 })).rejects.toThrow(
      "Please enter time multiple of 15.",
    );
    await expect(c.store.uninstall({ serialNumber: MIA, packageName: free[2]! })).rejects.toThrow("Please install app first");
    expect(await app(deviceId, free[2]!)).toBeUndefined();
    expect(await app(deviceId, paid.package_name)).toBeUndefined();
  });

  it("another family's phone and parent are refused on install and uninstall; nothing is written", async () => {
    const { deviceId } = await h.kid(MIA);
    const other = h.caller(h.other);
    await expect(
      other.store.install({ serialNumber: MIA, packageName: free[3]!, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.store.uninstall({ serialNumber: MIA, packageName: free[0]! })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      h
        .caller(h.demo)
        .store.install({ serialNumber: h.other.serialNumber, packageName: free[3]!, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      h.caller(null).store.install({ serialNumber: MIA, packageName: free[3]!, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await app(deviceId, free[3]!)).toBeUndefined();
    expect(await h.tdb.db.selectFrom("master_applications").select("product_id").where("package_name", "=", free[3]!).execute()).toEqual(
      [],
    );
  });
});
