import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "./bus";
import { DIALECTS } from "../db/index.testing";
import { limitDay } from "../db/queries/usage-today";
import { kidTimeZone } from "../db/queries/time-zone";
import { localDay } from "../core/zoned-time";
import { latestPolicy } from "./policy/store";
import { decide } from "./policy/enforce";
import type { PolicyDocument } from "./policy/build";
import { ALREADY_ANSWERED } from "./requests";
import { STORE_DETAIL_NOT_FOUND } from "./store";
import type { SimulatedPhone } from "./simulator/phone";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Requests (issue 14): the kid asks from the phone, the parent answers, the phone obeys. Through the device
// service and the simulator, on both databases.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

describe.each(DIALECTS)("device service: requests on %s", (dialect) => {
  let h: Harness;
  let mia: { profileId: string; deviceId: string };
  let phone: SimulatedPhone;
  /** An installed catalogue app on Mia's phone, its category with no limit of its own. */
  let app: { package_name: string; play_store_category: string };
  const published: BusMessage[] = [];

  beforeAll(async () => {
    h = await startHarness({ dialect });
    h.bus.subscribe((m) => void published.push(m));
    mia = await h.kid(MIA);
    await h.tdb.db.deleteFrom("category_limits").where("profile_id", "=", mia.profileId).execute();
    // Today's usage is what the phone here reports (an hour holds at most 60 minutes for the whole phone).
    await h.tdb.db
      .deleteFrom("app_usage_hourly")
      .where("device_id", "=", mia.deviceId)
      .where("hour", ">=", `${limitDay()}T00:00:00.000Z`)
      .execute();
    await h.tdb.db.deleteFrom("app_usage_daily").where("device_id", "=", mia.deviceId).where("day", "=", limitDay()).execute();
    app = await h.tdb.db
      .selectFrom("profile_apps as pa")
      .innerJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.package_name", "pa.play_store_category"])
      .where("pa.device_id", "=", mia.deviceId)
      .where("pa.is_installed", "=", 1)
      .where("pa.is_app_disabled", "=", 0)
      .orderBy("pa.package_name")
      .limit(1)
      .executeTakeFirstOrThrow();
    phone = await h.phone(MIA);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const pending = (profileId: string) =>
    h.tdb.db.selectFrom("app_requests").selectAll().where("profile_id", "=", profileId).where("status", "=", "Pending").execute();
  const byMessage = (messageId: string) =>
    h.tdb.db.selectFrom("app_requests").selectAll().where("message_id", "=", messageId).executeTakeFirstOrThrow();
  /** Today's bonus grants for one app of Mia's (bonus.ts grantBonus, scope 'app'), on the kid's day in the family's zone. */
  const appBonus = async (pkg: string) => {
    const day = localDay(new Date(), await kidTimeZone(h.tdb.db, mia.profileId));
    return h.tdb.db
      .selectFrom("bonus_grants")
      .select(["day", "minutes", "granted_by"])
      .where("profile_id", "=", mia.profileId)
      .where("scope", "=", "app")
      .where("target", "=", pkg)
      .where("day", "=", day)
      .orderBy("created_at")
      .execute();
  };

  it("a request retried by the phone after a lost ack is stored once, with one notification and a live update", async () => {
    const id = `retry-${dialect}-${Date.now()}`;
    const data = { requestType: "App Install", packageName: "org.scratchjr.android", remarks: "For school" };
    await phone.send("app_request", data, id);
    await phone.send("app_request", data, id);
    const rows = await h.tdb.db.selectFrom("app_requests").selectAll().where("message_id", "=", id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "Pending", request_type: "App Install", remarks: "For school", device_id: mia.deviceId });
    const notes = await h.tdb.db
      .selectFrom("notifications")
      .select("message")
      .where("profile_id", "=", mia.profileId)
      .where("type", "=", "app_request")
      .where("package_name", "=", "org.scratchjr.android")
      .execute();
    expect(notes).toHaveLength(1);
    expect(published.some((m) => m.type === "parent.refresh" && m.reason === "device.request" && m.parentIds.includes(h.demo.id))).toBe(
      true,
    );
  });

  it("extend: today's limit rises on the phone, the standing limit does not; the phone is told and acknowledges", async () => {
    await h.caller(h.demo).apps.setLimit({ serialNumber: MIA, packageName: app.package_name, enableDailyLimit: true, dailyLimitTime: 30 });
    await phone.enforcer.useApp(app.package_name, 40);
    await waitFor(async () => phone.state.disabled.has(app.package_name));
    const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 30, remarks: "Homework" });
    const req = await byMessage(messageId);
    const r = await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 30 });
    expect(r.respones_msg).toMatch(/30 more minutes .* today/);
    expect("redirectToCategory" in r).toBe(false);
    const answer = await phone.requests.waitForAnswer(messageId);
    expect(answer).toMatchObject({ status: "Approved", requestType: "Extend Time", dailyLimitMinutes: 30, limitTodayMinutes: 60 });
    expect(phone.requests.notifications.at(-1)?.message).toMatch(/30 more minutes/);
    // The standing limit is unchanged; today's extra minutes are bonus time for the app (bonus.ts), which the
    // policy carries for the kid's day and which ends at the kid's midnight.
    const standing = await h.tdb.db
      .selectFrom("profile_apps")
      .select("daily_limit_minutes")
      .where("device_id", "=", mia.deviceId)
      .where("package_name", "=", app.package_name)
      .executeTakeFirstOrThrow();
    expect(standing.daily_limit_minutes).toBe(30);
    const [bonus] = await appBonus(app.package_name);
    expect(bonus).toEqual({ day: expect.any(String), minutes: 30, granted_by: h.demo.id });
    const policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.doc.apps.find((a) => a.packageName === app.package_name)).toMatchObject({ dailyLimitMinutes: 30 });
    expect(policy?.doc.bonus).toMatchObject({ day: bonus!.day, apps: { [app.package_name]: 30 } });
    // The phone applied it (acknowledged: green) and lets the app run again, with 20 of today's 60 minutes left.
    await waitFor(async () => phone.state.enforcedVersion === policy!.version);
    await waitFor(async () => (await latestPolicy(h.tdb.db, mia.deviceId))?.acknowledged_at);
    expect(phone.state.disabled.has(app.package_name)).toBe(false);
    const mine = decide({
      policy: phone.state.policy as PolicyDocument,
      usageToday: phone.enforcer.usageOn(limitDay()),
      now: new Date(),
    }).find((d) => d.packageName === app.package_name);
    expect(mine?.minutesLeft).toBe(20);
    expect((await byMessage(messageId)).status).toBe("Approved");
    expect(published.some((m) => m.type === "parent.refresh" && m.reason === "request.answered")).toBe(true);
  });

  it("two approvals of one request at once: one outcome, the other is told it was already answered", async () => {
    const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 15 });
    const req = await byMessage(messageId);
    const results = await Promise.allSettled([
      h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 15 }),
      h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 15 }),
    ]);
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((x) => x.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: "CONFLICT", message: ALREADY_ANSWERED });
    // The extra minutes were added once (30 + 15), and the phone heard once.
    expect((await appBonus(app.package_name)).map((b) => b.minutes)).toEqual([30, 15]);
    await phone.requests.waitForAnswer(messageId);
    const results2 = await h.tdb.db
      .selectFrom("device_commands")
      .select("payload")
      .where("device_id", "=", mia.deviceId)
      .where("type", "=", "APP_REQUEST_RESULT")
      .execute();
    expect(results2.filter((c) => c.payload.includes(req.id))).toHaveLength(1);
    // A rejection after the approval is refused the same way.
    await expect(h.caller(h.demo).requests.reject({ serialNumber: MIA, id: req.id })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("extend for an app whose category is disabled: redirectToCategory with the category, nothing answered", async () => {
    await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: app.play_store_category,
      enableDailyLimit: false,
      dailyLimitTime: 0,
      isCategoryEnabled: false,
    });
    const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 30 });
    const req = await byMessage(messageId);
    const r = await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 30 });
    expect(r).toMatchObject({ redirectToCategory: true, data: app.play_store_category, reason: "category-disabled" });
    expect((await byMessage(messageId)).status).toBe("Pending");
    await h.caller(h.demo).categories.update({
      serialNumber: MIA,
      category: app.play_store_category,
      enableDailyLimit: false,
      dailyLimitTime: 0,
      isCategoryEnabled: true,
    });
  });

  it("extend for an app the parent turned off: the same answer, naming the app; nothing answered, no bonus", async () => {
    const turn = (off: boolean) =>
      h.tdb.db
        .updateTable("profile_apps")
        .set({ is_app_disabled: off ? 1 : 0, disabled_type: off ? "Manually" : null })
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", app.package_name)
        .execute();
    await turn(true);
    try {
      const before = (await appBonus(app.package_name)).length;
      const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 30 });
      const req = await byMessage(messageId);
      const r = await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 30 });
      expect(r).toMatchObject({ redirectToCategory: true, data: app.play_store_category, reason: "app-disabled" });
      expect((await byMessage(messageId)).status).toBe("Pending");
      expect(await appBonus(app.package_name)).toHaveLength(before);
    } finally {
      await turn(false);
    }
  });

  it("install: approval with a limit creates the profile app and installs it through the outbox; the limit reaches the phone", async () => {
    const pkg = "org.scratchjr.android";
    const messageId = await phone.requests.ask("install", pkg, { remarks: "Coding club" });
    const req = await byMessage(messageId);
    await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, enableDailyLimit: true, dailyLimitTime: 45 });
    await phone.waitForCommand("INSTALL_APP", 5_000, (c) => c.payload.packageName === pkg);
    await waitFor(async () => phone.state.installed.has(pkg));
    const row = await waitFor(async () =>
      h.tdb.db
        .selectFrom("profile_apps")
        .selectAll()
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", pkg)
        .where("is_installed", "=", 1)
        .executeTakeFirst(),
    );
    // The Play Store's install (store.ts installFromStore): the master application, the kid's app installed by
    // the parent (FORCE_INSTALLED) with the request it answers.
    expect(row).toMatchObject({ enable_daily_limit: 1, daily_limit_minutes: 45, install_type: "FORCE_INSTALLED", request_id: req.id });
    expect(
      await h.tdb.db.selectFrom("master_applications").select("package_name").where("package_name", "=", pkg).executeTakeFirst(),
    ).toEqual({ package_name: pkg });
    await waitFor(
      async () => (phone.state.policy as PolicyDocument | undefined)?.apps.find((a) => a.packageName === pkg)?.dailyLimitMinutes === 45,
    );
    expect(await phone.requests.waitForAnswer(messageId)).toMatchObject({ status: "Approved", dailyLimitMinutes: 45 });
  });

  it("install of an app the catalogue lacks: the spec's message, still pending", async () => {
    const messageId = await phone.requests.ask("install", "com.not.in.catalogue", {});
    const req = await byMessage(messageId);
    await expect(
      h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toThrow(STORE_DETAIL_NOT_FOUND);
    expect((await byMessage(messageId)).status).toBe("Pending");
  });

  it("install of an app already on the phone: the store's refusal, the request stays pending and the phone hears nothing", async () => {
    const messageId = await phone.requests.ask("install", app.package_name, {});
    const req = await byMessage(messageId);
    await expect(
      h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id, enableDailyLimit: false, dailyLimitTime: 0 }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/already on Mia's phone/) });
    expect(await byMessage(messageId)).toMatchObject({ status: "Pending", answered_by: null, answered_at: null });
    const answers = await h.tdb.db
      .selectFrom("device_commands")
      .select("payload")
      .where("device_id", "=", mia.deviceId)
      .where("type", "=", "APP_REQUEST_RESULT")
      .execute();
    expect(answers.filter((c) => c.payload.includes(req.id))).toHaveLength(0);
  });

  it("extend by minutes off the 15-minute step: the bonus rounds up to the step (10 → 15)", async () => {
    const before = (await appBonus(app.package_name)).length;
    const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 10 });
    const req = await byMessage(messageId);
    const r = await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id });
    expect(r.respones_msg).toMatch(/15 more minutes/);
    expect((await appBonus(app.package_name)).slice(before).map((b) => b.minutes)).toEqual([15]);
  });

  it("uninstall: approval removes the profile app, re-applies the policy and the phone removes the app", async () => {
    const pkg = "org.scratchjr.android";
    const messageId = await phone.requests.ask("uninstall", pkg, { remarks: "Done with it" });
    const req = await byMessage(messageId);
    const r = await h.caller(h.demo).requests.approve({ serialNumber: MIA, id: req.id });
    // The Play Store's uninstall (store.ts uninstallFromStore): the command names the request it answers.
    const cmd = await phone.waitForCommand("UNINSTALL_APP", 5_000, (c) => c.payload.packageName === pkg);
    expect(cmd.payload).toMatchObject({ packageName: pkg, requestId: req.id });
    await waitFor(async () => !phone.state.installed.has(pkg));
    expect(
      await h.tdb.db
        .selectFrom("profile_apps")
        .select("id")
        .where("device_id", "=", mia.deviceId)
        .where("package_name", "=", pkg)
        .executeTakeFirst(),
    ).toBeUndefined();
    const policy = await latestPolicy(h.tdb.db, mia.deviceId);
    expect(policy?.version).toBe("policyVersion" in r ? r.policyVersion : null);
    expect(policy?.doc.apps.some((a) => a.packageName === pkg)).toBe(false);
    expect(await phone.requests.waitForAnswer(messageId)).toMatchObject({ status: "Approved", requestType: "App Uninstall" });
  });

  it("reject: the request leaves the pending list and the phone hears it", async () => {
    const messageId = await phone.requests.ask("install", "com.duolingo", { remarks: "please" });
    const req = await byMessage(messageId);
    expect((await pending(mia.profileId)).some((p) => p.id === req.id)).toBe(true);
    await h.caller(h.demo).requests.reject({ serialNumber: MIA, id: req.id });
    expect((await pending(mia.profileId)).some((p) => p.id === req.id)).toBe(false);
    expect(await byMessage(messageId)).toMatchObject({ status: "Rejected", answered_by: h.demo.id });
    expect(await phone.requests.waitForAnswer(messageId)).toMatchObject({ status: "Rejected" });
    expect(phone.requests.notifications.at(-1)?.message).toMatch(/said no/);
  });

  it("the phone is off when the parent answers: the answer waits in the outbox and arrives when it reconnects", async () => {
    const leo = await h.phone(LEO);
    const messageId = await leo.requests.ask("install", "com.roblox.client", { remarks: "please" });
    await leo.close();
    const req = await byMessage(messageId);
    await h.caller(h.demo).requests.reject({ serialNumber: LEO, id: req.id });
    await leo.connect();
    expect(await leo.requests.waitForAnswer(messageId)).toMatchObject({ status: "Rejected", packageName: "com.roblox.client" });
    await leo.close();
  });

  it("another family's request ids are refused on approve and reject, and nothing changes", async () => {
    const messageId = await phone.requests.ask("extend", app.package_name, { minutes: 30 });
    const req = await byMessage(messageId);
    await expect(h.caller(h.other).requests.approve({ serialNumber: MIA, id: req.id, extendLimit: 30 })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(h.caller(h.other).requests.reject({ serialNumber: MIA, id: req.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The other family's own phone with Mia's request id; the demo parent's other kid's phone with it.
    await expect(h.caller(h.other).requests.reject({ serialNumber: h.other.serialNumber, id: req.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(h.caller(h.demo).requests.reject({ serialNumber: LEO, id: req.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await byMessage(messageId)).status).toBe("Pending");
  });
});
