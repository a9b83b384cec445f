import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hhmm, wallClock } from "#core/zoned-time";
import { getTimeRule } from "#db/queries/time-rules/rules";
import { BONUS_MESSAGE } from "#device-service/bonus";
import { latestPolicy } from "#device-service/policy/store";
import { SESSION_BREAK_MESSAGE, SESSION_MINUTES_MESSAGE } from "#core/time-values";
import type { Harness } from "../../server/harness.testing";
import { startRouteHarness, type RouteHarness } from "../route-harness.testing";
import * as application from "./_app.application";
import * as category from "./_app.category";
import * as dashboard from "./_app.kids-device";
import * as settings from "./_app.global-settings";

const MIA = "DEMO-MIA-0001";
type Explained = { text: string; tone: string } | null;

/** Issue 21's controls on existing pages: Customise by day, Bonus time, and the decision's words. */
describe("time rules on the dashboard, Global Settings, /application and /category", () => {
  let h: Harness;
  let rh: RouteHarness;
  let until: Date[];
  let mia: { profileId: string; deviceId: string };
  let pkg: string;
  let cat: string;
  beforeAll(async () => {
    rh = await startRouteHarness();
    ({ h } = rh);
    until = [];
    rh.extra = { pageCacheUntil: (at: Date) => until.push(at) } as never;
    mia = await h.kid(MIA);
    const app = await h.tdb.db
      .selectFrom("profile_apps")
      .select(["package_name", "play_store_category"])
      .where("device_id", "=", mia.deviceId)
      .where("is_installed", "=", 1)
      .where("is_app_disabled", "=", 0)
      .where("package_name", "!=", "com.kidsportal.kidsapp")
      .orderBy("package_name")
      .executeTakeFirstOrThrow();
    [pkg, cat] = [app.package_name, app.play_store_category];
    await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: pkg, enableDailyLimit: true, dailyLimitTime: 60 });
    await h
      .caller(h.demo)
      .categories.update({ serialNumber: MIA, category: cat, enableDailyLimit: true, dailyLimitTime: 120, isCategoryEnabled: true });
  }, 60_000);
  afterAll(async () => {
    await rh?.close();
  });

  const call = (fn: unknown, url: string, form?: Record<string, string>) => rh.call(fn, url, { form });
  const json = async <T>(res: Response) => (await res.json()) as T;
  const toastOf = (res: Response) => rh.toastOf(res);
  const kidQs = () => `profileId=${mia.profileId}&serialNumber=${MIA}`;
  const appUrl = () => `/application?profile_id=${mia.profileId}&serialNumber=${MIA}&package_name=${pkg}&tab=usage`;
  const days = (v: number[]) => Object.fromEntries(v.map((m, i) => [`day${i}`, String(m)]));

  it("Global Settings: Customise by day opens seven steppers at today's one value, steps without JS, checks each day, saves and resets", async () => {
    const base = `/global-settings?${kidQs()}`;
    await call(settings.action, base, { intent: "limit", minutes: "120" });
    type W = { weekdays: { open: boolean; customised: boolean; minutes: number[] } };
    expect((await json<W>(await call(settings.loader, base))).weekdays).toEqual({
      open: false,
      customised: false,
      minutes: Array(7).fill(120),
    });
    expect((await json<W>(await call(settings.loader, `${base}&byDay=1`))).weekdays.open).toBe(true);
    const stepped = await call(settings.action, `${base}&byDay=1`, { intent: "weekdays", ...days(Array(7).fill(120)), "step-day5": "+15" });
    expect(stepped.headers.get("Location")).toBe(`${base}&days=120%2C120%2C120%2C120%2C120%2C135%2C120#by-day`);
    const refused = await call(settings.action, base, { intent: "weekdays", ...days([120, 120, 120, 120, 120, 130, 120]) });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ intent: "weekdays", error: "Saturday: Please enter time multiple of 15.", day: 5 });
    const saved = await call(settings.action, base, { intent: "weekdays", ...days([120, 120, 120, 120, 120, 240, 180]) });
    expect(await toastOf(saved)).toMatchObject({ type: "success", message: "Limits by day are saved." });
    expect((await getTimeRule(h.tdb.db, mia.profileId, "phone", "")).weekdayMinutes).toEqual([120, 120, 120, 120, 120, 240, 180]);
    expect((await json<W>(await call(settings.loader, base))).weekdays).toEqual({
      open: true,
      customised: true,
      minutes: [120, 120, 120, 120, 120, 240, 180],
    });
    await call(settings.action, base, { intent: "weekdays", do: "reset" });
    expect((await getTimeRule(h.tdb.db, mia.profileId, "phone", "")).weekdayMinutes).toBeNull();
  });

  it("/application and /category: limits by day and bonus time for today, with the bonus given today shown", async () => {
    await call(application.action, appUrl(), { intent: "weekdays", ...days([60, 60, 60, 60, 60, 90, 90]) });
    expect((await getTimeRule(h.tdb.db, mia.profileId, "app", pkg)).weekdayMinutes).toEqual([60, 60, 60, 60, 60, 90, 90]);
    const bonus = await call(application.action, appUrl(), { intent: "bonus", bonus: "30" });
    expect(await toastOf(bonus)).toMatchObject({ type: "success", message: "30 bonus minutes for Mia today." });
    expect((await json<{ bonus: { given: number } }>(await call(application.loader, appUrl()))).bonus.given).toBe(30);

    const catUrl = `/category?${kidQs()}&id=${encodeURIComponent(cat)}`;
    await call(category.action, catUrl, { intent: "weekdays", ...days([120, 120, 120, 120, 120, 180, 180]) });
    expect((await getTimeRule(h.tdb.db, mia.profileId, "category", cat)).weekdayMinutes).toEqual([120, 120, 120, 120, 120, 180, 180]);
    await call(category.action, catUrl, { intent: "bonus", bonus: "45" });
    expect((await json<{ bonus: { given: number } }>(await call(category.loader, catUrl))).bonus.given).toBe(45);
  });

  it("/application and /category: the session limit steps without JS, refuses bad values on the right field, saves, shows, reaches the policy and is removed", async () => {
    type S = { session: { saved: { minutes: number; breakMinutes: number } | null; minutes: number; breakMinutes: number } };
    expect((await json<S>(await call(application.loader, appUrl()))).session).toEqual({ saved: null, minutes: 60, breakMinutes: 15 });
    const stepped = await call(application.action, appUrl(), {
      intent: "session",
      sessionMinutes: "60",
      breakMinutes: "15",
      "step-session": "-15",
    });
    expect(stepped.headers.get("Location")).toBe(`${appUrl()}&session=45%2C15#session`);
    expect((await json<S>(await call(application.loader, `${appUrl()}&session=45,15`))).session).toMatchObject({
      saved: null,
      minutes: 45,
    });
    const badMinutes = await call(application.action, appUrl(), { intent: "session", sessionMinutes: "40", breakMinutes: "15" });
    expect(badMinutes.status).toBe(400);
    expect(await json(badMinutes)).toEqual({ intent: "session", error: SESSION_MINUTES_MESSAGE, field: "minutes" });
    const badBreak = await call(application.action, appUrl(), { intent: "session", sessionMinutes: "45", breakMinutes: "0" });
    expect(await json(badBreak)).toEqual({ intent: "session", error: SESSION_BREAK_MESSAGE, field: "break" });
    const saved = await call(application.action, `${appUrl()}&session=45,15`, {
      intent: "session",
      sessionMinutes: "45",
      breakMinutes: "15",
    });
    expect(saved.headers.get("Location")).toBe(`${appUrl()}#session`);
    expect(await toastOf(saved)).toMatchObject({
      type: "success",
      message: "Session limit saved: at most 45m in a row, then a 15m break.",
    });
    expect((await json<S>(await call(application.loader, appUrl()))).session).toEqual({
      saved: { minutes: 45, breakMinutes: 15 },
      minutes: 45,
      breakMinutes: 15,
    });
    const policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.apps.find((a) => a.packageName === pkg)?.session).toEqual({ minutes: 45, breakMinutes: 15 });
    const off = await call(application.action, appUrl(), { intent: "session", do: "off" });
    expect(await toastOf(off)).toMatchObject({ type: "success", message: "Session limit removed." });
    expect((await getTimeRule(h.tdb.db, mia.profileId, "app", pkg)).sessionMinutes).toBeNull();

    const catUrl = `/category?${kidQs()}&id=${encodeURIComponent(cat)}`;
    await call(category.action, catUrl, { intent: "session", sessionMinutes: "90", breakMinutes: "30" });
    expect(await getTimeRule(h.tdb.db, mia.profileId, "category", cat)).toMatchObject({ sessionMinutes: 90, breakMinutes: 30 });
    expect((await json<S>(await call(category.loader, catUrl))).session.saved).toEqual({ minutes: 90, breakMinutes: 30 });
  });

  it("the dashboard's Bonus time: steps without JS, refuses what is not 15-minute steps, gives the phone 30 minutes and shows them", async () => {
    const url = `/kids-device?profileId=${mia.profileId}&modal=bonus`;
    const stepped = await call(dashboard.action, url, { intent: "bonus", profileId: mia.profileId, bonus: "30", "step-bonus": "+15" });
    expect(stepped.headers.get("Location")).toBe(`${url}&bonus=45#bonus`);
    const refused = await call(dashboard.action, url, { intent: "bonus", profileId: mia.profileId, bonus: "20" });
    expect(refused.status).toBe(400);
    expect(await json(refused)).toEqual({ intent: "bonus", error: BONUS_MESSAGE });
    const given = await call(dashboard.action, url, { intent: "bonus", profileId: mia.profileId, bonus: "30" });
    expect(given.headers.get("Location")).toBe(`/kids-device?profileId=${mia.profileId}`);
    expect(await toastOf(given)).toMatchObject({ type: "success", message: "30 bonus minutes for Mia today." });
    expect(
      (await json<{ bonus: { given: number } }>(await call(dashboard.loader, `/kids-device?profileId=${mia.profileId}`))).bonus.given,
    ).toBe(30);
  });

  it("the dashboard and /application say why an app is blocked and until when; the page cache keeps the page no longer", async () => {
    const now = new Date();
    const zone = wallClock(now, "UTC");
    const start = (zone.minuteOfDay + 1440 - 30) % 1440;
    const end = (zone.minuteOfDay + 90) % 1440;
    await h.caller(h.demo).time.setTimeZone({ timeZone: "UTC" });
    // Only the schedule blocks the app here. A limit used up today ends at midnight, before a Bedtime that crosses
    // it, and the block ending first is the one shown: late in the UTC day the demo phone's use reaches them.
    await h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 0 });
    await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: pkg, enableDailyLimit: false, dailyLimitTime: 60 });
    await h
      .caller(h.demo)
      .categories.update({ serialNumber: MIA, category: cat, enableDailyLimit: false, dailyLimitTime: 120, isCategoryEnabled: true });
    await h.caller(h.demo).time.saveSchedule({
      profileId: mia.profileId,
      schedule: { name: "Bedtime", days: [0, 1, 2, 3, 4, 5, 6], start, end, blocksAll: true, categories: [], apps: [] },
    });
    // Mia used the app today (before the window), so it is among the most used apps.
    const hour = new Date(Math.floor((now.getTime() - 3 * 3_600_000) / 3_600_000) * 3_600_000).toISOString();
    await h.tdb.db
      .insertInto("app_usage_hourly")
      .values({ device_id: mia.deviceId, package_name: pkg, hour, minutes: 5 })
      .onConflict((oc) => oc.columns(["device_id", "hour", "package_name"]).doUpdateSet({ minutes: 5 }))
      .execute();
    await h.tdb.db
      .insertInto("app_usage_daily")
      .values({ device_id: mia.deviceId, package_name: pkg, day: hour.slice(0, 10), minutes: 5 })
      .onConflict((oc) => oc.columns(["device_id", "day", "package_name"]).doUpdateSet({ minutes: 5 }))
      .execute();
    until.length = 0;
    // Every app of the week (Show More), found by name: other apps may be turned off by a parent, which comes first.
    const dash = await json<{ usage: { apps: { packageName: string; explanation: Explained }[] } }>(
      await call(dashboard.loader, `/kids-device?profileId=${mia.profileId}&filter=week&apps=300`),
    );
    const shown = dash.usage.apps.find((a) => a.packageName === pkg);
    expect(shown?.explanation).toEqual({ text: `Blocked by Bedtime until ${hhmm(end)}`, tone: "blocked" });
    expect(until).toHaveLength(1);
    expect(until[0]!.getTime()).toBeLessThanOrEqual(now.getTime() + 91 * 60_000);
    const app = await json<{ explanation: Explained }>(await call(application.loader, appUrl()));
    expect(app.explanation).toEqual({ text: `Blocked by Bedtime until ${hhmm(end)}`, tone: "blocked" });
  });
});
