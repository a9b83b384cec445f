import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDelegation, answerDelegation } from "../db/queries/delegations";
import { newId, nowIso } from "../core/ids.server";
import { createKidProfile } from "../db/queries/kids";
import { createParent } from "../db/queries/parents";
import type { Parent } from "../db/schema";
import { createTestDb, DIALECTS, type TestDb } from "../db/index.testing";
import { createLocalBus } from "./bus";
import { createDeviceCaller } from "./caller";

// Issue 18: every command and setting change records who made it — the owner or a delegate with access.
describe.each(DIALECTS)("who changed it, on %s", (dialect) => {
  let t: TestDb;
  let owner: Parent;
  let delegate: Parent;
  let profileId: string;
  let deviceId: string;
  const serialNumber = "ACTOR-0001";
  const caller = (p: Parent) =>
    createDeviceCaller({ db: t.db, bus: createLocalBus(), log: () => {}, parent: { id: p.id, email: p.email, role: p.role } });

  beforeAll(async () => {
    t = await createTestDb(dialect);
    owner = await createParent(t.db, { email: "owner@actors.example", name: "Owner", passwordHash: "x", emailVerified: true });
    delegate = await createParent(t.db, { email: "helper@actors.example", name: "Helper", passwordHash: "x", emailVerified: true });
    profileId = await createKidProfile(t.db, owner.id, { name: "Ada", birthMonth: 5, birthYear: 2015 });
    deviceId = newId();
    const ts = nowIso();
    await t.db
      .insertInto("devices")
      .values({ id: deviceId, profile_id: profileId, serial_number: serialNumber, created_at: ts, updated_at: ts })
      .execute();
    const d = await createDelegation(t.db, owner, { email: delegate.email, name: "Helper", allowedKids: [profileId], accessLevel: "full" });
    if (!d.ok) throw new Error(d.message);
    expect((await answerDelegation(t.db, delegate, d.id, "Accepted")).ok).toBe(true);
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("sleep mode, protection, map flag, global limit, location and the kid's profile carry the delegate who changed them; commands too", async () => {
    const d = caller(delegate);
    await d.kids.setSleepMode({ profileId, sleepMode: true });
    await d.kids.setProtection({ profileId, serialNumber, kidsAppProtectionStatus: true });
    await d.settings.setGlobalDailyLimit({ serialNumber, minutes: 60 });
    await d.device.updateDevice({ serialNumber, enableLocationTracking: true, locationTrackingInterval: 30 });
    await d.kids.updateProfile({ profileId, kidName: "Ada", birthMonth: 5, birthYear: 2015 });
    await d.device.issueCommand({ serialNumber, type: "LOCK" });

    const kid = await t.db
      .selectFrom("kid_profiles")
      .select(["sleep_mode", "sleep_mode_by", "updated_by"])
      .where("id", "=", profileId)
      .executeTakeFirstOrThrow();
    expect(kid).toEqual({ sleep_mode: 1, sleep_mode_by: delegate.id, updated_by: delegate.id });
    expect(
      (await t.db.selectFrom("devices").select("settings_updated_by").where("id", "=", deviceId).executeTakeFirstOrThrow())
        .settings_updated_by,
    ).toBe(delegate.id);
    expect(
      (await t.db.selectFrom("global_settings").select("updated_by").where("device_id", "=", deviceId).executeTakeFirstOrThrow())
        .updated_by,
    ).toBe(delegate.id);
    expect(
      (await t.db.selectFrom("location_settings").select("updated_by").where("device_id", "=", deviceId).executeTakeFirstOrThrow())
        .updated_by,
    ).toBe(delegate.id);
    const commands = await t.db.selectFrom("device_commands").select("issued_by").where("device_id", "=", deviceId).execute();
    expect(commands.length).toBeGreaterThan(0);
    expect(new Set(commands.map((c) => c.issued_by))).toEqual(new Set([delegate.id]));

    // The owner's next change names the owner.
    await caller(owner).kids.setSleepMode({ profileId, sleepMode: false });
    await caller(owner).device.updateDevice({ serialNumber, enableLocationMapDisplay: true });
    expect(
      (await t.db.selectFrom("kid_profiles").select("sleep_mode_by").where("id", "=", profileId).executeTakeFirstOrThrow()).sleep_mode_by,
    ).toBe(owner.id);
    expect(
      (await t.db.selectFrom("devices").select("settings_updated_by").where("id", "=", deviceId).executeTakeFirstOrThrow())
        .settings_updated_by,
    ).toBe(owner.id);
  });

  it("an app's limit and enabled state, and a category's limit, carry the parent who changed them last", async () => {
    const ts = nowIso();
    const packageName = "com.example.drawing";
    await t.db
      .insertInto("profile_apps")
      .values({
        id: newId(),
        profile_id: profileId,
        device_id: deviceId,
        package_name: packageName,
        is_installed: 1,
        disabled_type: null,
        installation_failure_reason: null,
        updated_by: null,
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    const appBy = async () =>
      (
        await t.db
          .selectFrom("profile_apps")
          .select("updated_by")
          .where("device_id", "=", deviceId)
          .where("package_name", "=", packageName)
          .executeTakeFirstOrThrow()
      ).updated_by;
    const categoryBy = async () =>
      (
        await t.db
          .selectFrom("category_limits")
          .select("updated_by")
          .where("profile_id", "=", profileId)
          .where("category", "=", "Others")
          .executeTakeFirstOrThrow()
      ).updated_by;

    await caller(delegate).apps.setLimit({ serialNumber, packageName, enableDailyLimit: true, dailyLimitTime: 45 });
    expect(await appBy()).toBe(delegate.id);
    await caller(owner).apps.setEnabled({ serialNumber, packageName, enabled: false });
    expect(await appBy()).toBe(owner.id);
    await caller(delegate).apps.setEnabled({ serialNumber, packageName, enabled: true });
    expect(await appBy()).toBe(delegate.id);

    await caller(delegate).categories.update({
      serialNumber,
      category: "Others",
      enableDailyLimit: true,
      dailyLimitTime: 60,
      isCategoryEnabled: true,
    });
    expect(await categoryBy()).toBe(delegate.id);
    await caller(owner).categories.update({
      serialNumber,
      category: "Others",
      enableDailyLimit: false,
      dailyLimitTime: 0,
      isCategoryEnabled: true,
    });
    expect(await categoryBy()).toBe(owner.id);
  });
});
