import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { PHONE_APP_PACKAGES } from "./policy/enforce";
import type { PolicyDocument } from "./policy/build";
import { grantBonus } from "./bonus";
import type { SimulatedPhone } from "./simulator/phone";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Time rules enforced by the phone alone, on the simulator's clock (issue 21 "Shown by").
const MIA = "DEMO-MIA-0001";
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];
const bedtime = (start = 21 * 60, end = 7 * 60, days = EVERY_DAY) => ({
  name: "Bedtime",
  days,
  start,
  end,
  blocksAll: true,
  categories: [],
  apps: [],
});

describe.each(DIALECTS)("time rules on the phone on %s", (dialect) => {
  let h: Harness;
  let mia: { profileId: string; deviceId: string };
  beforeAll(async () => {
    h = await startHarness({ dialect });
    mia = await h.kid(MIA);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });
  let phone: SimulatedPhone | undefined;
  afterEach(async () => {
    await phone?.close();
    await reset();
  });
  const manual = () =>
    policyOf(phone!)
      .apps.filter((a) => a.disabled)
      .map((a) => a.packageName);
  /** What the phone blocks beside the parent's own blocks. */
  const blockedNow = () => [...phone!.state.disabled].filter((p) => !manual().includes(p)).sort();

  const policyOf = (phone: SimulatedPhone) => phone.state.policy as PolicyDocument;
  /** Apps a whole-phone schedule stops: not the kids app, the phone app, always-allowed or the parent's own blocks. */
  const blockable = (phone: SimulatedPhone) =>
    policyOf(phone)
      .apps.filter(
        (a) =>
          a.installType !== "FORCE_INSTALLED" &&
          !a.alwaysAllowed &&
          !a.disabled &&
          !(PHONE_APP_PACKAGES as readonly string[]).includes(a.packageName),
      )
      .map((a) => a.packageName)
      .sort();
  const stored = (pkg: string) =>
    h.tdb.db
      .selectFrom("profile_apps")
      .select(["is_app_disabled", "disabled_type"])
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
  const limited = new Set<string>();
  /** An installed, usable app of Mia's without a limit of its own (the seed gives some one). */
  async function somePackage(): Promise<string> {
    const r = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("is_installed", "=", 1)
      .where((eb) => eb.or([eb("disabled_type", "is", null), eb("disabled_type", "!=", "Manually")]))
      .where("enable_daily_limit", "=", 0)
      .where("package_name", "not in", ["com.kidsportal.kidsapp", ...PHONE_APP_PACKAGES])
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    return r.package_name;
  }
  async function setAppLimit(pkg: string, minutes: number) {
    limited.add(pkg);
    return h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: pkg, enableDailyLimit: minutes > 0, dailyLimitTime: minutes });
  }
  async function reset() {
    for (const pkg of limited)
      await h.tdb.db
        .updateTable("profile_apps")
        .set({ enable_daily_limit: 0, daily_limit_minutes: 0, is_app_disabled: 0, disabled_type: null })
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", pkg)
        .execute();
    limited.clear();
    await h.tdb.db
      .updateTable("profile_apps")
      .set({ is_app_disabled: 0, disabled_type: null })
      .where("device_id", "=", mia.deviceId)
      .where("disabled_type", "!=", "Manually")
      .execute();
    const ids = await h.tdb.db.selectFrom("kid_schedules").select("id").where("profile_id", "=", mia.profileId).execute();
    for (const { id } of ids) await h.caller(h.demo).time.deleteSchedule({ profileId: mia.profileId, id });
    await h.tdb.db.deleteFrom("kid_time_rules").where("profile_id", "=", mia.profileId).execute();
    await h.tdb.db.deleteFrom("bonus_grants").where("profile_id", "=", mia.profileId).execute();
  }
  async function applied(phone: SimulatedPhone, versions: Record<string, number>) {
    await waitFor(async () => phone.state.enforcedVersion === versions[mia.deviceId]).catch((e) => {
      console.log(
        "DEBUG",
        phone.state.policyVersion,
        phone.state.enforcedVersion,
        versions,
        mia.deviceId,
        phone.received.map((c) => c.type),
      );
      throw e;
    });
  }

  it("Bedtime 21:00–07:00 blocks everything but the always-allowed apps with reason Cronjob and lifts at 07:00", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-12-07T20:00:00Z");
    const pkgs = await h.tdb.db
      .selectFrom("profile_apps")
      .select("package_name")
      .where("device_id", "=", mia.deviceId)
      .where("is_installed", "=", 1)
      .where("is_app_disabled", "=", 0)
      .orderBy("package_name")
      .execute();
    const allowed = pkgs.find((p) => p.package_name !== "com.kidsportal.kidsapp")!.package_name;
    await h.caller(h.demo).time.setAlwaysAllowed({ profileId: mia.profileId, packageName: allowed, allowed: true });
    const r = await h.caller(h.demo).time.saveSchedule({ profileId: mia.profileId, schedule: bedtime() });
    await applied(phone, r.policyVersions);
    const apps = blockable(phone);
    expect(apps.length).toBeGreaterThan(1);
    expect(apps).not.toContain(allowed);
    expect(blockedNow()).toEqual([]);

    await phone.enforcer.advanceTo(new Date("2026-12-07T21:00:00Z"));
    expect(blockedNow()).toEqual(apps);
    expect(phone.state.disabled.has(allowed)).toBe(false);
    await waitFor(async () => (await stored(apps[0])).disabled_type === "Cronjob");
    expect(await stored(apps.at(-1)!)).toEqual({ is_app_disabled: 1, disabled_type: "Cronjob" });
    expect(await stored(allowed)).toMatchObject({ is_app_disabled: 0 });

    await phone.enforcer.advanceTo(new Date("2026-12-08T06:59:00Z"));
    expect(blockedNow()).toEqual(apps);
    await phone.enforcer.advanceTo(new Date("2026-12-08T07:00:00Z"));
    expect(blockedNow()).toEqual([]);
    await waitFor(async () => (await stored(apps[0])).is_app_disabled === 0);
  });

  it("a phone disconnected at 20:00 still blocks at 21:00, and tells the portal when it is back", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-12-09T19:30:00Z");
    const r = await h.caller(h.demo).time.saveSchedule({ profileId: mia.profileId, schedule: bedtime() });
    await applied(phone, r.policyVersions);
    await phone.enforcer.advanceTo(new Date("2026-12-09T20:00:00Z"));
    await phone.close();
    expect(phone.connected).toBe(false);
    await phone.enforcer.advanceTo(new Date("2026-12-09T21:00:00Z"));
    const apps = blockable(phone);
    expect(blockedNow()).toEqual(apps);
    expect((await stored(apps[0])).disabled_type).not.toBe("Cronjob");
    await phone.connect();
    await waitFor(async () => (await stored(apps[0])).disabled_type === "Cronjob");
  });

  it("Saturday's limit differs from Monday's; warnings at 5 and 1 minutes before the app runs out", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-12-14T10:00:00Z"); // a Monday
    const pkg = await somePackage();
    await setAppLimit(pkg, 30);
    const r = await h
      .caller(h.demo)
      .time.setWeekdayLimits({ profileId: mia.profileId, scope: "app", target: pkg, minutes: [30, 30, 30, 30, 30, 60, 60] });
    await applied(phone, r.policyVersions);

    expect(await phone.enforcer.play(pkg, 45)).toEqual({ used: 30, stoppedBy: "Overuse" });
    const mine = phone.enforcer.warnings.filter((w) => w.kind === "app" && w.target === pkg);
    expect(mine.map((w) => [w.minutesBefore, w.at])).toEqual([
      [5, "2026-12-14T10:25:00.000Z"],
      [1, "2026-12-14T10:29:00.000Z"],
    ]);

    phone.enforcer.clock.set("2026-12-19T10:00:00Z"); // the Saturday
    await phone.enforcer.tick();
    expect(await phone.enforcer.play(pkg, 45)).toEqual({ used: 45, stoppedBy: null });
    expect(await phone.enforcer.play(pkg, 30)).toEqual({ used: 15, stoppedBy: "Overuse" });
    await phone.close();
  });

  it("30 bonus minutes end at the kid's midnight; the standing limit never changes", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-12-21T22:00:00Z");
    const pkg = await somePackage();
    await waitFor(async () => phone!.state.enforcedVersion === (await setAppLimit(pkg, 30)).policyVersion);
    expect((await phone.enforcer.play(pkg, 40)).used).toBe(30);
    const g = await grantBonus(
      h.runtime.deps,
      { profileId: mia.profileId, scope: "app", target: pkg, minutes: 30, actor: h.demo.id },
      phone.enforcer.clock.now(),
    );
    expect(g.day).toBe("2026-12-21");
    await applied(phone, g.policyVersions);
    expect(phone.state.disabled.has(pkg)).toBe(false);
    expect(await phone.enforcer.play(pkg, 40)).toEqual({ used: 30, stoppedBy: "Overuse" });
    const limit = await h.tdb.db
      .selectFrom("profile_apps")
      .select("daily_limit_minutes")
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", pkg)
      .executeTakeFirstOrThrow();
    expect(limit.daily_limit_minutes).toBe(30);

    await phone.enforcer.advanceTo(new Date("2026-12-22T00:00:00Z"));
    expect(phone.state.disabled.has(pkg)).toBe(false);
    // The new day has the standing 30 minutes only.
    expect(await phone.enforcer.play(pkg, 40)).toEqual({ used: 30, stoppedBy: "Overuse" });
    await phone.close();
  });

  it("warnings at 5 and 1 minutes before a schedule starts", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-12-23T20:50:00Z");
    const r = await h.caller(h.demo).time.saveSchedule({ profileId: mia.profileId, schedule: bedtime() });
    await applied(phone, r.policyVersions);
    await phone.enforcer.advanceTo(new Date("2026-12-23T21:00:00Z"));
    expect(phone.enforcer.warnings.filter((w) => w.kind === "schedule").map((w) => [w.name, w.minutesBefore, w.at])).toEqual([
      ["Bedtime", 5, "2026-12-23T20:55:00.000Z"],
      ["Bedtime", 1, "2026-12-23T20:59:00.000Z"],
    ]);
  });

  it("a DST night in Europe/London: changing the family's zone re-sends the policy; 23:00–07:00 lasts nine hours", async () => {
    phone = await h.phone(MIA);
    phone.enforcer.clock.set("2026-10-24T21:00:00Z"); // Saturday, 22:00 BST
    const r = await h.caller(h.demo).time.saveSchedule({ profileId: mia.profileId, schedule: bedtime(23 * 60, 7 * 60, [5]) });
    await applied(phone, r.policyVersions);
    expect(policyOf(phone).timeZone).toBeUndefined();
    await h.caller(h.demo).time.setTimeZone({ timeZone: "Europe/London" });
    await waitFor(async () => policyOf(phone!).timeZone === "Europe/London" && phone!.state.enforcedVersion === phone!.state.policyVersion);
    const apps = blockable(phone);

    await phone.enforcer.advanceTo(new Date("2026-10-24T21:59:00Z"));
    expect(blockedNow()).toEqual([]);
    await phone.enforcer.advanceTo(new Date("2026-10-24T22:00:00Z")); // 23:00 BST
    expect(blockedNow()).toEqual(apps);
    await phone.enforcer.advanceTo(new Date("2026-10-25T06:59:00Z")); // 06:59 GMT, 8 h 59 min later
    expect(blockedNow()).toEqual(apps);
    await phone.enforcer.advanceTo(new Date("2026-10-25T07:00:00Z")); // 07:00 GMT: nine hours
    expect(blockedNow()).toEqual([]);
    await h.caller(h.demo).time.setTimeZone({ timeZone: "UTC" });
  });

  it("another family's schedule ids and kids are refused", async () => {
    const r = await h.caller(h.demo).time.saveSchedule({ profileId: mia.profileId, schedule: bedtime() });
    const other = h.caller(h.other);
    await expect(other.time.deleteSchedule({ profileId: h.other.profileId, id: r.id })).rejects.toThrow("We couldn't find this schedule.");
    await expect(other.time.saveSchedule({ profileId: h.other.profileId, id: r.id, schedule: bedtime() })).rejects.toThrow(
      "We couldn't find this schedule.",
    );
    await expect(other.time.deleteSchedule({ profileId: mia.profileId, id: r.id })).rejects.toThrow("We couldn't find this kid");
    await expect(other.time.grantBonus({ profileId: mia.profileId, scope: "phone", target: "", minutes: 30 })).rejects.toThrow(
      "We couldn't find this kid",
    );
    expect(await h.tdb.db.selectFrom("kid_schedules").select("id").where("id", "=", r.id).executeTakeFirst()).toBeDefined();
    await h.caller(h.demo).time.deleteSchedule({ profileId: mia.profileId, id: r.id });
  });
});
