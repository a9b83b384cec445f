import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AlertDelivery, AlertEvent } from "../../core/alert-events";
import { alertText } from "../../core/alert-texts";
import { parseEnv } from "../../core/env.server";
import { deliverMail } from "../../core/mail.server";
import { checkUnsubscribe } from "../../core/report-unsubscribe";
import { createTestDb, DIALECTS, type TestDb } from "../../db/index.testing";
import { answerDelegation, createDelegation, revokeDelegation } from "../../db/queries/delegations";
import { createKidProfile } from "../../db/queries/kids";
import { createParent } from "../../db/queries/parents";
import type { Parent } from "../../db/schema";
import type { BusMessage } from "../../device-service/bus";
import {
  listAlerts,
  markAlertsRead,
  readAlertSettings,
  saveAlertSettings,
  turnAlertEmailsOff,
  unreadAlertCount,
} from "../../db/queries/alerts";
import { AlertEventError, applyStatusAlerts, raiseOfflineAlerts, recordAlertEvent } from "../../device-service/alerts";
import type { EnqueueOptions, JobQueue, Payload, QueueName } from "../../core/job-queues";
import { ALERT_MAX_ATTEMPTS, alertTick, deliverAlert, quietUntil, type AlertDeliveryDeps } from "./deliver";

const SECRET = "alerts-test-secret-alerts-test-secret-0123";

/** A queue that only remembers what was asked of it (the processor is called by the test). */
function recordingQueue() {
  const jobs: { name: QueueName; payload: unknown; opts?: EnqueueOptions }[] = [];
  const q: JobQueue = {
    async enqueue<N extends QueueName>(name: N, payload: Payload<N>, opts?: EnqueueOptions) {
      jobs.push({ name, payload, opts });
    },
    async repeat() {},
  };
  return { q, jobs };
}

describe.each(DIALECTS)("alerts on %s", (dialect) => {
  let t: TestDb;
  let owner: Parent;
  let delegate: Parent;
  let stranger: Parent;
  let leo: string;
  let deviceId: string;
  const mails: { to: string; subject: string; text: string }[] = [];
  const bus: BusMessage[] = [];
  const pushed: AlertDelivery[] = [];
  const queue = recordingQueue();
  let failMail = 0;
  const deps = (): AlertDeliveryDeps => ({
    db: t.db,
    log: () => {},
    jobs: queue.q,
    bus: { publish: async (m) => void bus.push(m) },
    mailer: async (m) => {
      if (failMail > 0) {
        failMail--;
        return false;
      }
      mails.push({ to: m.to, subject: m.subject, text: m.text });
      return true;
    },
    secret: SECRET,
    publicUrl: "https://portal.example",
    push: async (d) => void pushed.push(d),
  });
  const event = (over: Partial<AlertEvent> = {}): AlertEvent => ({
    eventId: `request:${Math.random().toString(36).slice(2)}`,
    kind: "request.install",
    profileId: leo,
    deviceId,
    at: new Date().toISOString(),
    details: { app: "Minecraft" },
    ...over,
  });
  const deliveries = (alertId: string) =>
    t.db.selectFrom("alert_deliveries").selectAll().where("alert_id", "=", alertId).orderBy("channel").execute();

  beforeAll(async () => {
    t = await createTestDb(dialect);
    owner = await createParent(t.db, { email: "alice@family.example", name: "Alice", passwordHash: "x", emailVerified: true });
    delegate = await createParent(t.db, { email: "bob@family.example", name: "Bob", passwordHash: "x", emailVerified: true });
    stranger = await createParent(t.db, { email: "eve@other.example", name: "Eve", passwordHash: "x", emailVerified: true });
    leo = await createKidProfile(t.db, owner.id, { name: "Leo", birthMonth: 2, birthYear: 2016 });
    await createKidProfile(t.db, stranger.id, { name: "Zed", birthMonth: 3, birthYear: 2015 });
    deviceId = `dev-${dialect}`;
    const ts = new Date().toISOString();
    await t.db
      .insertInto("devices")
      .values({ id: deviceId, profile_id: leo, serial_number: `SER-${dialect}`, created_at: ts, updated_at: ts })
      .execute();
  });
  afterAll(async () => {
    await t?.destroy();
  });

  it("texts: one per kind, from the kid's name and the event's details", () => {
    expect(alertText("request.install", "Leo", { app: "Minecraft" }).title).toBe("Leo asked to install Minecraft");
    expect(alertText("battery.low", "Leo", { percent: 12 }).title).toBe("Leo's phone battery is at 12 %");
    expect(alertText("place.arrive", "Leo", { place: "School" }).title).toBe("Leo arrived at School");
    expect(alertText("request.extra-time", "Leo", { app: "Duolingo", minutes: 30 }).title).toBe(
      "Leo asked for 30 more minutes on Duolingo",
    );
    expect(alertText("phone.offline", "Leo", { hours: 7 }).title).toBe("Leo's phone has been offline for 7 hours");
    expect(alertText("tamper.clock-moved", "Leo", { minutes: -12 }).body).toContain("12 minutes behind");
  });

  it("refuses a bad event with a clear message and stores nothing", async () => {
    await expect(recordAlertEvent(deps(), event({ kind: "nope" as never }))).rejects.toThrow(/An alert's kind is one of/);
    await expect(recordAlertEvent(deps(), event({ at: "yesterday" }))).rejects.toThrow(AlertEventError);
    await expect(recordAlertEvent(deps(), event({ profileId: "no-such-kid" }))).rejects.toThrow(
      "This alert names a kid that does not exist.",
    );
    expect(await t.db.selectFrom("alerts").select("id").execute()).toEqual([]);
  });

  it("writes one alert per event id per recipient (the family's parent and accepted delegates, not others), and queues each once", async () => {
    const e = event();
    const first = await recordAlertEvent(deps(), e);
    const again = await Promise.all([recordAlertEvent(deps(), e), recordAlertEvent(deps(), e)]);
    expect(first).toHaveLength(1);
    expect(again.flat()).toEqual([]);
    const rows = await t.db.selectFrom("alerts").selectAll().where("event_id", "=", e.eventId).execute();
    expect(rows.map((r) => r.parent_id)).toEqual([owner.id]);
    expect(rows[0]).toMatchObject({ title: "Leo asked to install Minecraft", kind: "request.install" });
    expect(queue.jobs.filter((j) => (j.payload as { alertId: string }).alertId === first[0])).toHaveLength(1);
    // Defaults: centre, e-mail (requests) and push pending.
    expect((await deliveries(first[0])).map((d) => [d.channel, d.state])).toEqual([
      ["centre", "pending"],
      ["email", "pending"],
      ["push", "pending"],
    ]);
  });

  it("a delegate receives alerts of the kids shared with them until revoked", async () => {
    const created = await createDelegation(t.db, owner, { email: delegate.email, name: "Bob", allowedKids: [leo], accessLevel: "full" });
    if (!created.ok) throw new Error(created.message);
    expect(await recordAlertEvent(deps(), event())).toHaveLength(1); // pending: the owner only
    const accepted = await answerDelegation(t.db, delegate, created.id, "Accepted");
    expect(accepted.ok).toBe(true);
    const both = await recordAlertEvent(deps(), event());
    expect(both).toHaveLength(2);
    // Revoked after the alert was written, before it was delivered: the delegate's channels are skipped.
    await revokeDelegation(t.db, owner.id, created.id);
    const delegates = await t.db
      .selectFrom("alerts")
      .select("id")
      .where("id", "in", both)
      .where("parent_id", "=", delegate.id)
      .executeTakeFirstOrThrow();
    await deliverAlert(deps(), delegates.id);
    expect((await deliveries(delegates.id)).map((d) => d.state)).toEqual(["skipped", "skipped", "skipped"]);
    expect(await recordAlertEvent(deps(), event())).toHaveLength(1);
  });

  it("delivers each channel at most once, under concurrent processors and repeated jobs", async () => {
    const [id] = await recordAlertEvent(deps(), event({ details: { app: "Roblox" } }));
    const before = { mails: mails.length, pushed: pushed.length, bus: bus.length };
    await Promise.all(Array.from({ length: 6 }, () => deliverAlert(deps(), id)));
    await deliverAlert(deps(), id);
    expect(mails.length - before.mails).toBe(1);
    expect(pushed.length - before.pushed).toBe(1);
    expect(bus.slice(before.bus).filter((m) => m.type === "parent.refresh" && m.reason === "alert.new")).toHaveLength(1);
    expect(pushed.at(-1)).toEqual({
      alertId: id,
      parentId: owner.id,
      title: "Leo asked to install Roblox",
      body: expect.any(String),
      url: expect.stringContaining("/requests?profileId="),
    });
    expect(Object.keys(pushed.at(-1)!).sort()).toEqual(["alertId", "body", "parentId", "title", "url"]);
    const d = await deliveries(id);
    expect(d.map((r) => [r.channel, r.state, r.attempts])).toEqual([
      ["centre", "sent", 1],
      ["email", "sent", 1],
      ["push", "sent", 1],
    ]);
    const mail = mails.at(-1)!;
    expect(mail).toMatchObject({ to: owner.email, subject: "Leo asked to install Roblox" });
    const unsub = new URL(/To stop alert e-mails, open: (\S+)/.exec(mail.text)![1]);
    expect(unsub.pathname).toBe("/alerts/unsubscribe");
    expect(checkUnsubscribe(SECRET, unsub.searchParams.get("parent"), unsub.searchParams.get("sig"), "alerts")).toBe(true);
    expect(checkUnsubscribe(SECRET, unsub.searchParams.get("parent"), unsub.searchParams.get("sig"), "report")).toBe(false);
  });

  it("retries a failed e-mail with back-off, then gives up after the last attempt; never sends twice", async () => {
    const [id] = await recordAlertEvent(deps(), event());
    failMail = 2;
    const start = Date.now();
    await deliverAlert(deps(), id, new Date(start));
    let email = (await deliveries(id)).find((r) => r.channel === "email")!;
    expect(email).toMatchObject({ state: "pending", attempts: 1, error: "the mail was not sent" });
    await deliverAlert(deps(), id, new Date(start + 1000)); // not due yet
    expect((await deliveries(id)).find((r) => r.channel === "email")!.attempts).toBe(1);
    await deliverAlert(deps(), id, new Date(Date.parse(email.next_at)));
    email = (await deliveries(id)).find((r) => r.channel === "email")!;
    expect(email.attempts).toBe(2);
    const n = mails.length;
    await deliverAlert(deps(), id, new Date(Date.parse(email.next_at)));
    expect(mails.length).toBe(n + 1);
    expect((await deliveries(id)).find((r) => r.channel === "email")).toMatchObject({ state: "sent", attempts: 3 });

    const [other] = await recordAlertEvent(deps(), event());
    failMail = 100;
    let at = Date.now();
    for (let i = 0; i < ALERT_MAX_ATTEMPTS + 2; i++) {
      await deliverAlert(deps(), other, new Date(at));
      const row = (await deliveries(other)).find((r) => r.channel === "email")!;
      at = Date.parse(row.next_at);
    }
    failMail = 0;
    expect((await deliveries(other)).find((r) => r.channel === "email")).toMatchObject({ state: "failed", attempts: ALERT_MAX_ATTEMPTS });
  });

  it("with no mail transport (no SMTP_URL, no dev mailbox) e-mail is skipped at once, never retried", async () => {
    const [id] = await recordAlertEvent(deps(), event());
    const n = mails.length;
    await deliverAlert({ ...deps(), mailOff: true }, id);
    expect(mails.length).toBe(n);
    expect((await deliveries(id)).find((r) => r.channel === "email")).toMatchObject({
      state: "skipped",
      attempts: 0,
      error: "no mail transport",
    });
    expect((await deliveries(id)).find((r) => r.channel === "centre")).toMatchObject({ state: "sent" });
  });

  it("quiet hours hold e-mail and push until they end; the centre shows at once", async () => {
    await t.db.updateTable("parents").set({ time_zone: "Europe/London" }).where("id", "=", owner.id).execute();
    await t.db
      .insertInto("alert_quiet_hours")
      .values({ parent_id: owner.id, start_time: "22:00", end_time: "07:00", updated_at: new Date().toISOString() })
      .execute();
    const night = new Date("2026-07-01T22:30:00Z"); // 23:30 in London (summer time)
    expect(quietUntil({ start_time: "22:00", end_time: "07:00" }, "Europe/London", night)?.toISOString()).toBe("2026-07-02T06:00:00.000Z");
    expect(quietUntil({ start_time: "22:00", end_time: "07:00" }, "Europe/London", new Date("2026-07-01T12:00:00Z"))).toBeNull();
    const [id] = await recordAlertEvent(deps(), event({ at: night.toISOString() }), night);
    const m = mails.length;
    await deliverAlert(deps(), id, night);
    expect((await deliveries(id)).map((r) => [r.channel, r.state, r.next_at])).toEqual([
      ["centre", "sent", night.toISOString()],
      ["email", "pending", "2026-07-02T06:00:00.000Z"],
      ["push", "pending", "2026-07-02T06:00:00.000Z"],
    ]);
    expect(mails.length).toBe(m);
    expect(queue.jobs.at(-1)).toMatchObject({ name: "alert-delivery", payload: { alertId: id } });
    const morning = new Date("2026-07-02T06:00:00Z");
    await deliverAlert(deps(), id, morning);
    expect((await deliveries(id)).map((r) => r.state)).toEqual(["sent", "sent", "sent"]);
    expect(mails.length).toBe(m + 1);
    await t.db.deleteFrom("alert_quiet_hours").execute();
  });

  it("the parent's switches: off channels are skipped; the centre off keeps the alert out of the centre", async () => {
    const ts = new Date().toISOString();
    await t.db
      .insertInto("alert_preferences")
      .values([
        { parent_id: owner.id, kind: "battery.low", channel: "centre", enabled: 0, updated_at: ts },
        { parent_id: owner.id, kind: "battery.low", channel: "email", enabled: 1, updated_at: ts },
      ])
      .execute();
    const [id] = await recordAlertEvent(deps(), event({ kind: "battery.low", details: { percent: 9 } }));
    const a = await t.db.selectFrom("alerts").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(a.in_centre).toBe(0);
    expect((await deliveries(id)).map((r) => [r.channel, r.state])).toEqual([
      ["centre", "skipped"],
      ["email", "pending"],
      ["push", "pending"],
    ]);
  });

  it("a phone's status raises battery and tampering alerts once per spell; offline once per offline spell", async () => {
    const kinds = async () =>
      (await t.db.selectFrom("alerts").select("kind").where("parent_id", "=", owner.id).where("device_id", "=", deviceId).execute()).map(
        (r) => r.kind,
      );
    await t.db.deleteFrom("alerts").execute();
    const dev = { id: deviceId, profile_id: leo };
    const healthy = {
      batteryPercentage: 80,
      protectionState: true,
      missingPermissions: [],
      deviceAdminActive: true,
      deviceTime: new Date().toISOString(),
      online: true,
    };
    await applyStatusAlerts(deps(), dev, healthy);
    expect(await kinds()).toEqual([]);
    const now = new Date();
    const bad = {
      batteryPercentage: 12,
      protectionState: false,
      missingPermissions: ["Usage access"],
      deviceAdminActive: false,
      deviceTime: new Date(now.getTime() + 10 * 60_000).toISOString(),
    };
    await applyStatusAlerts(deps(), dev, bad, now);
    await applyStatusAlerts(deps(), dev, bad, now);
    expect((await kinds()).sort()).toEqual([
      "battery.low",
      "tamper.clock-moved",
      "tamper.device-admin-removed",
      "tamper.permissions-off",
      "tamper.protection-off",
    ]);
    // Fixed, then off again: a new spell, a new tampering alert; the battery says once a day.
    await applyStatusAlerts(deps(), dev, { ...healthy, deviceTime: new Date().toISOString() });
    await applyStatusAlerts(deps(), dev, bad, new Date(now.getTime() + 1000));
    const after = await kinds();
    expect(after.filter((k) => k === "tamper.protection-off")).toHaveLength(2);
    expect(after.filter((k) => k === "battery.low")).toHaveLength(1);

    const long = new Date(Date.now() - 8 * 3_600_000).toISOString();
    await t.db
      .insertInto("device_status")
      .values({ device_id: deviceId, online: 0, updated_at: long })
      .onConflict((oc) => oc.column("device_id").doUpdateSet({ online: 0, updated_at: long }))
      .execute();
    expect(await raiseOfflineAlerts(deps(), 6)).toBe(1);
    expect(await raiseOfflineAlerts(deps(), 6)).toBe(0);
    await alertTick(deps());
    expect((await kinds()).filter((k) => k === "phone.offline")).toHaveLength(1);
    const offline = await t.db.selectFrom("alerts").select("title").where("kind", "=", "phone.offline").executeTakeFirstOrThrow();
    expect(offline.title).toBe("Leo's phone has been offline for 8 hours");
    await applyStatusAlerts(deps(), dev, { online: true });
    expect(await raiseOfflineAlerts(deps(), 6)).toBe(1); // a new spell (the status row still says offline since then)
  });

  it("the centre: the unread count, the list with filters, mark read (own alerts only); settings and the e-mail unsubscribe", async () => {
    await t.db.deleteFrom("alerts").execute();
    const ids = await recordAlertEvent(deps(), event({ kind: "request.uninstall" }));
    await recordAlertEvent(deps(), event({ kind: "battery.low", details: { percent: 5 } })); // centre off for battery (above)
    expect(await unreadAlertCount(t.db, owner)).toBe(1);
    expect((await listAlerts(t.db, owner, { kid: leo, kind: "request.uninstall", page: 1 })).total).toBe(1);
    expect((await listAlerts(t.db, owner, { kid: leo, kind: "request.install", page: 1 })).rows).toEqual([]);
    expect(await markAlertsRead(t.db, stranger, ids)).toBe(0);
    expect(await markAlertsRead(t.db, owner, ids)).toBe(1);
    expect(await unreadAlertCount(t.db, owner)).toBe(0);
    await turnAlertEmailsOff(t.db, owner.id);
    const s = await readAlertSettings(t.db, owner.id);
    expect(Object.values(s.switches).every((c) => !c.email)).toBe(true);
    expect(s.switches["battery.low"].centre).toBe(false);
    expect(s.switches["request.install"].push).toBe(true);
    await saveAlertSettings(t.db, owner.id, { ...s, quiet: { start: "21:30", end: "06:45" } });
    expect((await readAlertSettings(t.db, owner.id)).quiet).toEqual({ start: "21:30", end: "06:45" });
    const [next] = await recordAlertEvent(deps(), event());
    expect((await deliveries(next)).find((r) => r.channel === "email")!.state).toBe("skipped");
    await saveAlertSettings(t.db, owner.id, { ...s, quiet: null });
    expect((await readAlertSettings(t.db, owner.id)).quiet).toBeNull();
  });

  it("the tick closes a claim left by a crash as failed (never sent twice) and re-queues what is due", async () => {
    const [id] = await recordAlertEvent(deps(), event());
    const old = new Date(Date.now() - 3_600_000).toISOString();
    await t.db
      .updateTable("alert_deliveries")
      .set({ state: "sending", claimed_at: old })
      .where("alert_id", "=", id)
      .where("channel", "=", "email")
      .execute();
    const n = queue.jobs.length;
    await alertTick(deps());
    expect((await deliveries(id)).find((r) => r.channel === "email")!.state).toBe("failed");
    expect(queue.jobs.slice(n).some((j) => (j.payload as { alertId: string }).alertId === id)).toBe(true);
  });
});

// The alert mail through the real adapter (nodemailer, SMTP_URL) to a real local SMTP server.
describe("alert mail over SMTP", () => {
  let t: TestDb;
  let smtp: SMTPServer;
  let port = 0;
  const received: { to: string[]; raw: string }[] = [];
  beforeAll(async () => {
    t = await createTestDb("sqlite");
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
          callback();
        });
      },
    });
    smtp.on("error", () => {});
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
    port = (smtp.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await t?.destroy();
  });

  it("sends the alert with its time in the parent's time zone and an unsubscribe link", async () => {
    const env = parseEnv({ NODE_ENV: "test", SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: "Kids Portal <no-reply@kids-portal.local>" });
    const owner = await createParent(t.db, { email: "tz@family.example", name: "Tess", passwordHash: "x", emailVerified: true });
    await t.db.updateTable("parents").set({ time_zone: "America/New_York" }).where("id", "=", owner.id).execute();
    const kid = await createKidProfile(t.db, owner.id, { name: "Leo", birthMonth: 2, birthYear: 2016 });
    const d: AlertDeliveryDeps = {
      db: t.db,
      log: () => {},
      bus: { publish: async () => {} },
      mailer: (m) => deliverMail({ env, log: () => {}, keep: async () => {} }, m),
      secret: SECRET,
      publicUrl: "https://portal.example",
    };
    const [id] = await recordAlertEvent(d, {
      eventId: "tamper.protection-off:x:1",
      kind: "tamper.protection-off",
      profileId: kid,
      deviceId: null,
      at: "2026-11-29T15:00:00.000Z",
      details: {},
    });
    await deliverAlert(d, id);
    expect(received).toHaveLength(1);
    const raw = received[0].raw.replace(/=\r\n/g, "");
    expect(received[0].to).toEqual(["tz@family.example"]);
    expect(raw).toContain("Subject: Protection was turned off on Leo's phone");
    expect(raw).toContain("10:00 (America/New_York)");
    expect(raw).toMatch(/https:\/\/portal\.example\/alerts\/unsubscribe\?parent=/);
    // No push channel given: push is skipped, not failed.
    expect(
      (await t.db.selectFrom("alert_deliveries").select(["channel", "state"]).where("alert_id", "=", id).orderBy("channel").execute()).map(
        (r) => r.state,
      ),
    ).toEqual(["sent", "sent", "skipped"]);
  });
});
