import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids.server";
import { localDay, shiftDay } from "../../core/zoned-time";
import { kidTimeZone } from "./time-zone";
import { DIALECTS } from "../index.testing";
import { NOW, useDemoFamily } from "./dashboard/dashboard.testing";
import { extendStopOf, findPendingRequest, listPendingRequests, pendingRequestCounts } from "./requests";
import { limitDay } from "./usage-today";

describe.each(DIALECTS)("request queries on %s", (dialect) => {
  const f = useDemoFamily(dialect);
  const add = async (
    kid: { profileId: string; deviceId: string },
    v: {
      type: "App Install" | "App Uninstall" | "Extend Time";
      pkg: string;
      minutes?: number;
      at: string;
      status?: "Pending" | "Approved" | "Rejected";
    },
  ) => {
    const id = newId();
    await f.t.db
      .insertInto("app_requests")
      .values({
        id,
        profile_id: kid.profileId,
        device_id: kid.deviceId,
        package_name: v.pkg,
        request_type: v.type,
        status: v.status ?? "Pending",
        extended_time: v.minutes ?? 0,
        remarks: "please",
        message_id: id,
        answered_by: null,
        answered_at: null,
        created_at: v.at,
        updated_at: v.at,
      })
      .execute();
    return id;
  };

  it("lists only the phone's Pending requests, newest first, with the store's icon and title (or the package name) and the app's limit", async () => {
    const limited = await f.t.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", f.mia.deviceId)
      .where("is_installed", "=", 1)
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    await f.t.db
      .updateTable("profile_apps")
      .set({ enable_daily_limit: 1, daily_limit_minutes: 45 })
      .where("device_id", "=", f.mia.deviceId)
      .where("package_name", "=", limited.package_name)
      .execute();
    // Today's bonus time for the app (bonus_grants, scope 'app') counts, summed, on the kid's day in the family's zone;
    // the category's bonus and yesterday's do not.
    const day = localDay(NOW, await kidTimeZone(f.t.db, f.mia.profileId));
    const bonus = (scope: "app" | "category", target: string, d: string, minutes: number) => ({
      id: newId(),
      profile_id: f.mia.profileId,
      scope,
      target,
      day: d,
      minutes,
      granted_by: null,
      created_at: NOW.toISOString(),
    });
    await f.t.db
      .insertInto("bonus_grants")
      .values([
        bonus("app", limited.package_name, day, 15),
        bonus("app", limited.package_name, day, 15),
        bonus("app", limited.package_name, shiftDay(day, -1), 60),
        bonus("category", "EDUCATION", day, 30),
      ])
      .execute();
    const extend = await add(f.mia, { type: "Extend Time", pkg: limited.package_name, minutes: 30, at: "2026-11-21T10:00:00.000Z" });
    const install = await add(f.mia, { type: "App Install", pkg: "org.scratchjr.android", at: "2026-11-21T11:00:00.000Z" });
    const unknown = await add(f.mia, { type: "App Install", pkg: "com.not.in.store", at: "2026-11-21T09:00:00.000Z" });
    await add(f.mia, { type: "App Uninstall", pkg: "com.duolingo", at: "2026-11-21T12:00:00.000Z", status: "Rejected" });
    await add(f.leo, { type: "App Install", pkg: "com.duolingo", at: "2026-11-21T12:00:00.000Z" });

    const list = await listPendingRequests(f.t.db, f.mia.deviceId, NOW);
    expect(list.map((r) => r.id)).toEqual([install, extend, unknown]);
    expect(list[0]).toMatchObject({
      requestType: "App Install",
      title: "ScratchJr",
      remarks: "please",
      createdAt: "2026-11-21T11:00:00.000Z",
    });
    const store = await f.t.db
      .selectFrom("catalog_apps")
      .select("icon")
      .where("package_name", "=", "org.scratchjr.android")
      .executeTakeFirstOrThrow();
    expect(list[0]!.icon).toBe(store.icon);
    expect(list[1]).toMatchObject({ requestType: "Extend Time", extendedTime: 30, dailyLimitTime: 45, extraToday: 30 });
    expect(list[2]).toMatchObject({ title: null, icon: null, dailyLimitTime: null });
    // With the kid named, the bonus is read beside the list: the same answer; a wrong kid is not used.
    expect(await listPendingRequests(f.t.db, f.mia.deviceId, NOW, f.mia.profileId)).toEqual(list);
    expect(await listPendingRequests(f.t.db, f.mia.deviceId, NOW, f.leo.profileId)).toEqual(list);
    expect(await findPendingRequest(f.t.db, f.mia.deviceId, install)).toMatchObject({ id: install });
    expect(await findPendingRequest(f.t.db, f.leo.deviceId, install)).toBeNull();
  });

  it("counts each kid's Pending requests (the side menu's Request)", async () => {
    const counts = await pendingRequestCounts(f.t.db, [f.mia.profileId, f.leo.profileId, "nobody"]);
    expect(counts).toEqual({ [f.mia.profileId]: 3, [f.leo.profileId]: 1 });
    expect(await pendingRequestCounts(f.t.db, [])).toEqual({});
  });

  it("a paid app's request is marked paid (spec 2 §4 'Coming Soon'); a free one and one the catalogue lacks are not", async () => {
    const at = "2026-11-21T18:00:00.000Z";
    const paid = await add(f.leo, { type: "App Install", pkg: "com.tocaboca.tocakitchen2", at });
    const free = await add(f.leo, { type: "App Install", pkg: "org.scratchjr.android", at });
    const unknown = await add(f.leo, { type: "App Install", pkg: "com.not.in.catalogue", at });
    const list = await listPendingRequests(f.t.db, f.leo.deviceId, NOW);
    expect(Object.fromEntries(list.filter((r) => [paid, free, unknown].includes(r.id)).map((r) => [r.id, r.paid]))).toEqual({
      [paid]: true,
      [free]: false,
      [unknown]: false,
    });
  });

  it("extendStopOf: the app turned off, its category turned off or its limit used up today, else nothing; null off the phone", async () => {
    const app = await f.t.db
      .selectFrom("profile_apps")
      .select(["package_name", "play_store_category"])
      .where("device_id", "=", f.leo.deviceId)
      .where("is_installed", "=", 1)
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    const x = { deviceId: f.leo.deviceId, profileId: f.leo.profileId, packageName: app.package_name };
    const setApp = (disabled: boolean) =>
      f.t.db
        .updateTable("profile_apps")
        .set({ is_app_disabled: disabled ? 1 : 0, disabled_type: disabled ? "Manually" : null })
        .where("device_id", "=", f.leo.deviceId)
        .where("package_name", "=", app.package_name)
        .execute();
    const setCategory = async (v: { enabled: boolean; minutes: number }) => {
      await f.t.db
        .deleteFrom("category_limits")
        .where("profile_id", "=", f.leo.profileId)
        .where("category", "=", app.play_store_category)
        .execute();
      await f.t.db
        .insertInto("category_limits")
        .values({
          id: newId(),
          profile_id: f.leo.profileId,
          category: app.play_store_category,
          is_category_enabled: v.enabled ? 1 : 0,
          enable_daily_limit: v.minutes > 0 ? 1 : 0,
          daily_limit_minutes: v.minutes,
          updated_at: NOW.toISOString(),
          updated_by: null,
        })
        .execute();
    };
    await setApp(false);
    await setCategory({ enabled: true, minutes: 0 });
    expect(await extendStopOf(f.t.db, x, NOW)).toEqual({ stop: null, category: app.play_store_category });
    await setApp(true);
    expect((await extendStopOf(f.t.db, x, NOW))?.stop).toBe("app-disabled");
    await setApp(false);
    await setCategory({ enabled: false, minutes: 0 });
    expect((await extendStopOf(f.t.db, x, NOW))?.stop).toBe("category-disabled");
    const day = limitDay(NOW);
    await f.t.db.deleteFrom("app_usage_daily").where("device_id", "=", f.leo.deviceId).where("day", "=", day).execute();
    await f.t.db
      .insertInto("app_usage_daily")
      .values({ device_id: f.leo.deviceId, package_name: app.package_name, day, minutes: 30 })
      .execute();
    await setCategory({ enabled: true, minutes: 30 });
    expect((await extendStopOf(f.t.db, x, NOW))?.stop).toBe("category-used-up");
    await setCategory({ enabled: true, minutes: 45 });
    expect((await extendStopOf(f.t.db, x, NOW))?.stop).toBeNull();
    expect(await extendStopOf(f.t.db, { ...x, packageName: "com.not.on.the.phone" }, NOW)).toBeNull();
  });
});
