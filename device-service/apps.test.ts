import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { limitDay } from "../db/queries/usage-today";
import { listPendingRatings } from "../db/queries/dashboard/ratings";
import { getItemAck } from "./ack";
import { latestPolicy } from "./policy/store";
import { recordAppState } from "./socket/app-state";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Per-app and per-category settings through the device service: stored, applied as a policy, acknowledged.
const MIA = "DEMO-MIA-0001";

describe.each(DIALECTS)("device service: apps and categories on %s", (dialect) => {
  let h: Harness;
  let mia: { profileId: string; deviceId: string };
  let game: { package_name: string; play_store_category: string };
  beforeAll(async () => {
    h = await startHarness({ dialect });
    mia = await h.kid(MIA);
    game = await h.tdb.db
      .selectFrom("profile_apps as pa")
      .innerJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.package_name", "pa.play_store_category"])
      .where("pa.device_id", "=", mia.deviceId)
      .where("pa.is_app_disabled", "=", 0)
      .orderBy("pa.package_name")
      .limit(1)
      .executeTakeFirstOrThrow();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const setUsedToday = async (packageName: string, minutes: number) => {
    const day = limitDay();
    await h.tdb.db.deleteFrom("app_usage_daily").where("device_id", "=", mia.deviceId).where("day", "=", day).execute();
    await h.tdb.db.insertInto("app_usage_daily").values({ device_id: mia.deviceId, package_name: packageName, day, minutes }).execute();
  };

  it("an app's limit goes into the policy; orange (sent) until the phone acknowledges, then green", async () => {
    const phone = await h.phone(MIA, { ignoreCommands: true });
    const r = await h
      .caller(h.demo)
      .apps.setLimit({ serialNumber: MIA, packageName: game.package_name, enableDailyLimit: true, dailyLimitTime: 30 });
    expect(r.respones_msg).toMatch(/has a daily limit of 30 minutes\. Waiting for Mia's phone to confirm\./);
    const policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.apps.find((a) => a.packageName === game.package_name)).toMatchObject({ disabled: false, dailyLimitMinutes: 30 });
    expect(await getItemAck(h.tdb.db, mia.deviceId, { app: game.package_name })).toBe("sent");
    const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
    await phone.execute(cmd);
    await waitFor(async () => (await getItemAck(h.tdb.db, mia.deviceId, { app: game.package_name })) === "acknowledged");
    await phone.close();
  });

  it("enabling an app that used up its limit today is refused with the spec's words; disabling is 'Manually'", async () => {
    await h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: game.package_name, enabled: false });
    const row = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["is_app_disabled", "disabled_type"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", game.package_name)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ is_app_disabled: 1, disabled_type: "Manually" });
    await setUsedToday(game.package_name, 30);
    await expect(h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: game.package_name, enabled: true })).rejects.toThrow(
      "Please increase daily limit time to enable this category.",
    );
    await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: game.package_name, enableDailyLimit: true, dailyLimitTime: 45 });
    const ok = await h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: game.package_name, enabled: true });
    expect(ok.respones_msg).toMatch(/is enabled on Mia's phone/);
  });

  it("a category turned off and on again: its apps run again (the phone's 'Manually' block was the category's)", async () => {
    const update = (on: boolean) =>
      h.caller(h.demo).categories.update({
        serialNumber: MIA,
        category: game.play_store_category,
        enableDailyLimit: false,
        dailyLimitTime: 0,
        isCategoryEnabled: on,
      });
    const row = () =>
      h.tdb.db
        .selectFrom("profile_apps")
        .select(["is_app_disabled", "disabled_type"])
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", game.package_name)
        .executeTakeFirstOrThrow();
    await h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: game.package_name, enabled: true });
    await update(false);
    // The phone blocks the app for its category and says so (policy/enforce.ts: 'Manually').
    const device = { id: mia.deviceId, profile_id: mia.profileId };
    await recordAppState({ db: h.tdb.db, bus: h.bus, log: () => {} }, device, {
      packageName: game.package_name,
      disabled: true,
      reason: "Manually",
    });
    expect(await row()).toEqual({ is_app_disabled: 0, disabled_type: null });
    const on = await update(true);
    expect(on.respones_msg).toMatch(/is enabled on Mia's phone with no daily limit\./);
    const policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.apps.find((a) => a.packageName === game.package_name)).toMatchObject({ disabled: false });
    // The phone's other reasons are stored as they are.
    await recordAppState({ db: h.tdb.db, bus: h.bus, log: () => {} }, device, {
      packageName: game.package_name,
      disabled: true,
      reason: "Overuse",
    });
    expect(await row()).toEqual({ is_app_disabled: 1, disabled_type: "Overuse" });
    await recordAppState({ db: h.tdb.db, bus: h.bus, log: () => {} }, device, {
      packageName: game.package_name,
      disabled: false,
      reason: null,
    });
    expect(await row()).toEqual({ is_app_disabled: 0, disabled_type: null });
  });

  it("an app not on the phone: 'Please install app first'; the kids app has no limit", async () => {
    await expect(
      h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: "org.not.installed", enableDailyLimit: true, dailyLimitTime: 30 }),
    ).rejects.toThrow("Please install app first");
    await expect(
      h.caller(h.demo).apps.setEnabled({ serialNumber: MIA, packageName: "com.kidsportal.kidsapp", enabled: false }),
    ).rejects.toThrow("The kids app is always on");
  });

  it("another family's phone, kid and app are refused and nothing changes", async () => {
    const other = h.caller(h.other);
    await expect(
      other.apps.setLimit({ serialNumber: MIA, packageName: game.package_name, enableDailyLimit: true, dailyLimitTime: 15 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.apps.setEnabled({ serialNumber: MIA, packageName: game.package_name, enabled: false })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      other.categories.update({
        serialNumber: MIA,
        category: game.play_store_category,
        enableDailyLimit: true,
        dailyLimitTime: 15,
        isCategoryEnabled: false,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      other.apps.rate({
        profileId: mia.profileId,
        packageName: game.package_name,
        isEducational: 1,
        isPositive: 1,
        isSuitableContent: 1,
        isEasyToUnderstand: 1,
        isRecommend: false,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The demo parent's own call with the other family's phone.
    await expect(
      h
        .caller(h.demo)
        .apps.setLimit({ serialNumber: h.other.serialNumber, packageName: game.package_name, enableDailyLimit: true, dailyLimitTime: 15 }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const row = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["daily_limit_minutes", "is_app_disabled"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", game.package_name)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ daily_limit_minutes: 45, is_app_disabled: 0 });
    expect(await h.tdb.db.selectFrom("parent_ratings").select("id").where("parent_id", "=", h.other.id).execute()).toEqual([]);
  });

  it("a category limit goes into the policy; an unknown category is refused; re-enabling a used-up category is refused", async () => {
    const r = await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: game.play_store_category,
      enableDailyLimit: true,
      dailyLimitTime: 30,
      isCategoryEnabled: false,
    });
    expect(r.respones_msg).toMatch(/is disabled on Mia's phone/);
    let policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.limits.categories.find((c) => c.category === game.play_store_category)).toEqual({
      category: game.play_store_category,
      enabled: false,
      dailyLimitMinutes: 30,
    });
    expect(await getItemAck(h.tdb.db, mia.deviceId, { category: game.play_store_category })).toBe("sent");
    await setUsedToday(game.package_name, 30);
    await expect(
      h.caller(h.demo).categories.update({
        serialNumber: MIA,
        category: game.play_store_category,
        enableDailyLimit: true,
        dailyLimitTime: 30,
        isCategoryEnabled: true,
      }),
    ).rejects.toThrow("Please increase daily limit time to enable this category.");
    await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: game.play_store_category,
      enableDailyLimit: true,
      dailyLimitTime: 60,
      isCategoryEnabled: true,
    });
    policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.limits.categories.find((c) => c.category === game.play_store_category)).toEqual({
      category: game.play_store_category,
      enabled: true,
      dailyLimitMinutes: 60,
    });
    await expect(
      h.caller(h.demo).categories.update({
        serialNumber: MIA,
        category: "NOT_A_CATEGORY",
        enableDailyLimit: false,
        dailyLimitTime: 0,
        isCategoryEnabled: true,
      }),
    ).rejects.toThrow("We couldn't find this category.");
    await expect(
      h.caller(h.demo).categories.update({
        serialNumber: MIA,
        category: game.play_store_category,
        enableDailyLimit: true,
        dailyLimitTime: 20,
        isCategoryEnabled: true,
      }),
    ).rejects.toThrow("Please enter time multiple of 15.");
  });

  it("a parent's rating is stored (one per app and kid) and marks the app's pending rating shown; expert ratings cannot be set", async () => {
    const pending = await listPendingRatings(h.tdb.db, mia.deviceId, 50);
    const target = pending[0].package_name;
    const input = {
      profileId: mia.profileId,
      packageName: target,
      isEducational: 4,
      isPositive: 5,
      isSuitableContent: 3,
      isEasyToUnderstand: 4,
      isRecommend: true,
      review: "Great for spelling.",
    };
    expect((await h.caller(h.demo).apps.rate(input)).respones_msg).toMatch(/^Thank you for rating /);
    await h.caller(h.demo).apps.rate({ ...input, isEducational: 2 });
    const rows = await h.tdb.db
      .selectFrom("parent_ratings")
      .selectAll()
      .where("profile_id", "=", mia.profileId)
      .where("package_name", "=", target)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      is_educational: 2,
      is_positive: 5,
      is_recommend: 1,
      review: "Great for spelling.",
      is_easy_to_stop: null,
    });
    expect((await listPendingRatings(h.tdb.db, mia.deviceId, 50)).map((p) => p.package_name)).not.toContain(target);
    await expect(h.caller(h.demo).apps.rate({ ...input, expertRating: "EXPERT_RECOMMENDATION" } as typeof input)).rejects.toThrow(
      "Expert ratings are set by our expert team.",
    );
    await expect(h.caller(h.demo).apps.rate({ ...input, isPositive: 6 })).rejects.toThrow("Please choose 0 to 5 stars.");
  });
});
