import { describe, expect, it } from "vitest";
import { newId } from "../../core/ids.server";
import { localDay, shiftDay } from "../../core/zoned-time";
import { kidTimeZone } from "./time-zone";
import { DIALECTS } from "../index.testing";
import { NOW, useDemoFamily } from "./dashboard/dashboard.testing";
import { findPendingRequest, listPendingRequests, pendingRequestCounts } from "./requests";

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
});
