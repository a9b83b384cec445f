import { describe, expect, it } from "vitest";
import { newId, nowIso } from "../../core/ids.server";
import { DIALECTS } from "../index.testing";
import { useDemoFamily } from "./dashboard/dashboard.testing";
import { createParent } from "./parents";
import type { KyselyPlugin } from "kysely";
import {
  appChangedBy,
  categoryChangedBy,
  deviceSettingsChangedBy,
  globalSettingChangedBy,
  sleepModeChangedBy,
  uninstalledBy,
} from "./parent-profile";
import { listDashboardInstalls, listStoreInstalled } from "./store/installed";

/** Issue 18: per-app limits, category limits, installs and uninstalls name the parent who changed them last. */
describe.each(DIALECTS)("changed by, apps, categories and installs, on %s", (dialect) => {
  const f = useDemoFamily(dialect);

  it("an app's limit or install names its parent; nobody recorded is null; another phone's row is not read", async () => {
    const { db } = f.t;
    const sam = await createParent(db, { email: "sam@example.com", name: "Sam", passwordHash: "x", emailVerified: true });
    const ts = nowIso();
    const row = (pkg: string, by: string | null, deviceId = f.mia.deviceId, profileId = f.mia.profileId, installing = false) => ({
      id: newId(),
      profile_id: profileId,
      device_id: deviceId,
      package_name: pkg,
      is_installed: installing ? 0 : 1,
      install_state: installing ? ("installing" as const) : ("installed" as const),
      installation_failure_reason: null,
      install_type: "FORCE_INSTALLED",
      created_at: ts,
      updated_at: ts,
      updated_by: by,
    });
    await db
      .insertInto("profile_apps")
      .values([
        row("org.krita", sam.id, undefined, undefined, true),
        row("com.adsk.sketchbook", null),
        row("org.krita", null, f.leo.deviceId, f.leo.profileId),
      ])
      .execute();
    const expected = { id: sam.id, name: "Sam", email: "sam@example.com" };
    expect(await appChangedBy(db, f.mia.deviceId, "org.krita")).toEqual(expected);
    expect(await appChangedBy(db, f.mia.deviceId, "com.adsk.sketchbook")).toBeNull();
    expect(await appChangedBy(db, f.leo.deviceId, "org.krita")).toBeNull();
    expect(await appChangedBy(db, f.mia.deviceId, "not.on.the.phone")).toBeNull();

    // The dashboard's installs card and the store's Installed tab carry who sent the install.
    expect((await listDashboardInstalls(db, f.mia.deviceId)).find((i) => i.packageName === "org.krita")?.actor).toEqual(expected);
    const store = await listStoreInstalled(db, f.mia.deviceId);
    expect(store.find((i) => i.appId === "org.krita")?.actor).toEqual(expected);
    expect(store.find((i) => i.appId === "com.adsk.sketchbook")?.actor).toBeNull();
  });

  it("a category limit names its parent", async () => {
    const { db } = f.t;
    const lee = await createParent(db, { email: "lee@example.com", name: "Lee", passwordHash: "x", emailVerified: true });
    expect(await categoryChangedBy(db, f.mia.profileId, "CHANGED_BY_TEST")).toBeNull();
    await db
      .insertInto("category_limits")
      .values({
        id: newId(),
        profile_id: f.mia.profileId,
        category: "CHANGED_BY_TEST",
        enable_daily_limit: 1,
        daily_limit_minutes: 30,
        updated_at: nowIso(),
        updated_by: lee.id,
      })
      .execute();
    expect(await categoryChangedBy(db, f.mia.profileId, "CHANGED_BY_TEST")).toEqual({ id: lee.id, name: "Lee", email: "lee@example.com" });
    expect(await categoryChangedBy(db, f.leo.profileId, "CHANGED_BY_TEST")).toBeNull();
  });

  it("an uninstall names the issuer of the phone's latest UNINSTALL_APP for that package", async () => {
    const { db } = f.t;
    const [a, b] = await Promise.all([
      createParent(db, { email: "ann@example.com", name: "Ann", passwordHash: "x", emailVerified: true }),
      createParent(db, { email: "ben@example.com", name: "Ben", passwordHash: "x", emailVerified: true }),
    ]);
    const cmd = (pkg: string, by: string, at: string, deviceId = f.mia.deviceId) => ({
      id: newId(),
      device_id: deviceId,
      type: "UNINSTALL_APP",
      payload: JSON.stringify({ action: "uninstall_app", packageName: pkg, requestId: null }),
      status: "queued" as const,
      policy_version: null,
      issued_by: by,
      error: null,
      result: null,
      created_at: at,
      sent_at: null,
      completed_at: null,
      expires_at: null,
    });
    expect(await uninstalledBy(db, f.mia.deviceId, "com.example.gone")).toBeNull();
    await db
      .insertInto("device_commands")
      .values([
        cmd("com.example.gone", a.id, "2026-11-21T10:00:00.000Z"),
        cmd("com.example.gone", b.id, "2026-11-21T11:00:00.000Z"),
        cmd("com.example.other", a.id, "2026-11-21T12:00:00.000Z"),
        cmd("com.example.gone", a.id, "2026-11-21T13:00:00.000Z", f.leo.deviceId),
      ])
      .execute();
    expect(await uninstalledBy(db, f.mia.deviceId, "com.example.gone")).toEqual({ id: b.id, name: "Ben", email: "ben@example.com" });
    expect(await uninstalledBy(db, f.mia.deviceId, "com.example.other")).toMatchObject({ id: a.id });
    expect(await uninstalledBy(db, f.leo.deviceId, "com.example.other")).toBeNull();
  });

  it("names the parent in one statement: the row's column and its parent read together, not one after the other", async () => {
    const { db } = f.t;
    const kim = await createParent(db, { email: "kim@example.com", name: "Kim", passwordHash: "x", emailVerified: true });
    const ts = nowIso();
    await db.updateTable("kid_profiles").set({ sleep_mode_by: kim.id }).where("id", "=", f.mia.profileId).execute();
    await db.updateTable("devices").set({ settings_updated_by: kim.id }).where("id", "=", f.mia.deviceId).execute();
    await db.deleteFrom("global_settings").where("device_id", "=", f.mia.deviceId).where("key", "=", "GlobalDailyLimit").execute();
    await db
      .insertInto("global_settings")
      .values({ device_id: f.mia.deviceId, key: "GlobalDailyLimit", value: "60", updated_at: ts, updated_by: kim.id })
      .execute();
    let statements = 0;
    const counter: KyselyPlugin = { transformQuery: (a) => ((statements += 1), a.node), transformResult: async (a) => a.result };
    const counted = db.withPlugin(counter);
    const expected = { id: kim.id, name: "Kim", email: "kim@example.com" };
    for (const read of [
      () => sleepModeChangedBy(counted, f.mia.profileId),
      () => deviceSettingsChangedBy(counted, f.mia.deviceId),
      () => globalSettingChangedBy(counted, f.mia.deviceId),
    ]) {
      statements = 0;
      expect(await read()).toEqual(expected);
      expect(statements).toBe(1);
    }
    // Nobody recorded, or the kid's other phone: null, as before.
    expect(await sleepModeChangedBy(db, f.leo.profileId)).toBeNull();
    expect(await deviceSettingsChangedBy(db, f.leo.deviceId)).toBeNull();
    expect(await globalSettingChangedBy(db, f.leo.deviceId, "NoSuchSetting")).toBeNull();
  });
});
