import { createHash } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { DIALECTS } from "../db/testing";
import { newId, nowIso } from "../db/queries/ids";
import { getAckState } from "./ack";
import { issueCommand } from "./commands/outbox";
import { FCM_ACTIONS, FCM_ACTION_NAMES } from "./commands/types";
import type { BusMessage } from "./bus";
import { startHarness, TEST_API_KEY, waitFor, type Harness } from "./testing";

const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

async function rawSocket(url: string, credential: string): Promise<{ ws: WebSocket; frames: { event: string; id: string; data: Record<string, unknown> }[]; next: (event: string) => Promise<{ event: string; id: string; data: Record<string, unknown> }> }> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/device-socket`, { headers: { Authorization: `Bearer ${credential}` } });
  const frames: { event: string; id: string; data: Record<string, unknown> }[] = [];
  const waiters: { event: string; resolve: (f: (typeof frames)[number]) => void }[] = [];
  const unread: (typeof frames)[number][] = [];
  ws.on("message", (raw) => {
    const f = JSON.parse(raw.toString());
    frames.push(f);
    const i = waiters.findIndex((w) => w.event === f.event);
    if (i >= 0) waiters.splice(i, 1)[0].resolve(f);
    else unread.push(f);
  });
  await new Promise((r, j) => (ws.once("open", r), ws.once("error", j)));
  const next = (event: string) => {
    const i = unread.findIndex((f) => f.event === event);
    if (i >= 0) return Promise.resolve(unread.splice(i, 1)[0]);
    return new Promise<(typeof frames)[number]>((resolve) => waiters.push({ event, resolve }));
  };
  return { ws, frames, next };
}

describe.each(DIALECTS)("device service on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  describe("enrollment", () => {
    it("exchanges a one-time token for a credential whose hash only is stored; a reused token is refused", async () => {
      const { profileId } = await h.kid(MIA);
      const { token, enrollUrl, expiresAt } = await h.caller(h.demo).enrollment.createToken({ profileId });
      expect(enrollUrl).toContain(encodeURIComponent(token));
      expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
      const hardware = { serialNumber: "NEW-PHONE-0100", brand: "Nokia", model: "G42" };
      const res = await fetch(`${h.url}/device-api/enroll`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, hardware }) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: { credential: string; deviceId: string } };
      const row = await h.tdb.db.selectFrom("devices").selectAll().where("serial_number", "=", "NEW-PHONE-0100").executeTakeFirstOrThrow();
      expect(row.profile_id).toBe(profileId);
      expect(row.brand).toBe("Nokia");
      expect(row.credential_hash).toBe(createHash("sha256").update(body.data.credential).digest("hex"));
      expect(row.credential_hash).not.toContain(body.data.credential.split(".")[1]);
      const again = await fetch(`${h.url}/device-api/enroll`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, hardware }) });
      expect(again.status).toBe(401);
      expect(((await again.json()) as { respones_msg: string }).respones_msg).toMatch(/already been used/);
    });

    it("refuses another family's parent a token for a kid not theirs", async () => {
      const { profileId } = await h.kid(MIA);
      await expect(h.caller(h.other).enrollment.createToken({ profileId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    });

    it("a phone of another family cannot be taken over with a token of this family", async () => {
      const { profileId } = await h.kid(MIA);
      const { token } = await h.caller(h.demo).enrollment.createToken({ profileId });
      const res = await fetch(`${h.url}/device-api/enroll`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ token, hardware: { serialNumber: h.other.serialNumber } }) });
      expect(res.status).toBe(409);
    });

    it("kids app parent login needs the API key header, then lists kids and mints an enrollment token", async () => {
      const body = JSON.stringify({ email: "demo@kids-portal.test", password: "demo-parent-2026", profileId: (await h.kid(LEO)).profileId });
      const noKey = await fetch(`${h.url}/device-api/kids/parent/login`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      expect(noKey.status).toBe(401);
      const badPw = await fetch(`${h.url}/device-api/kids/parent/login`, { method: "POST", headers: { "Content-Type": "application/json", "x-api-key": TEST_API_KEY }, body: JSON.stringify({ email: "demo@kids-portal.test", password: "nope-nope" }) });
      expect(badPw.status).toBe(401);
      const ok = await fetch(`${h.url}/device-api/kids/parent/login`, { method: "POST", headers: { "Content-Type": "application/json", "x-api-key": TEST_API_KEY }, body });
      expect(ok.status).toBe(200);
      const r = (await ok.json()) as { data: { kidsList: { profile_name: string }[]; enrollment: { token: string } } };
      expect(r.data.kidsList.map((k) => k.profile_name).sort()).toEqual(["Leo", "Mia"]);
      expect(r.data.enrollment.token).toMatch(/^enr_/);
    });
  });

  describe("socket protocol", () => {
    it("closes with 1008 on a bad credential", async () => {
      const ws = new WebSocket(`${h.url.replace("http", "ws")}/device-socket`, { headers: { Authorization: "Bearer nope.nope" } });
      const code = await new Promise<number>((r) => ws.on("close", (c) => r(c)));
      expect(code).toBe(1008);
    });

    it("wants child_status first, refuses malformed, invalid, binary and oversized frames without dropping the phone", async () => {
      const phone = await h.phone(LEO, { connect: false });
      const s = await rawSocket(h.url, phone.credential!);
      await s.next("hello");
      s.ws.send(JSON.stringify({ event: "location", id: "x1", data: { latitude: 1, longitude: 2, deviceTime: new Date().toISOString() } }));
      expect((await s.next("error")).data.code).toBe("STATUS_FIRST");
      s.ws.send("{not json");
      expect((await s.next("error")).data.code).toBe("MALFORMED");
      s.ws.send(JSON.stringify({ event: "child_status", id: "x2", data: { batteryPercentage: 400 } }));
      expect((await s.next("error")).data.code).toBe("INVALID");
      s.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect((await s.next("error")).data.code).toBe("BINARY");
      s.ws.send(JSON.stringify({ event: "notification", id: "x3", data: { message: "a".repeat(300 * 1024), type: "t" } }));
      expect((await s.next("error")).data.code).toBe("TOO_LARGE");
      s.ws.send(JSON.stringify({ event: "child_status", id: "x4", data: { batteryPercentage: 50, wifiConnected: true, kidsAppStatus: "Healthy", appVersion: "3.9.0", protectionState: true } }));
      const ack = await s.next("ack");
      expect(ack.id).toBe("x4");
      expect(s.ws.readyState).toBe(WebSocket.OPEN);
      expect(h.logs.some((l) => l.msg === "device frame refused")).toBe(true);
      s.ws.close();
    });
  });

  describe("commands", () => {
    it("LOCK and REBOOT reach the phone and come back acknowledged; a reboot reconnects", async () => {
      const phone = await h.phone(MIA);
      const lock = await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" });
      expect(lock.respones_msg).toBe("Lock command sent to Mia's phone.");
      await waitFor(async () => phone.state.locked);
      const reconnected = new Promise((r) => phone.once("connected", r));
      const reboot = await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "REBOOT" });
      await reconnected;
      expect(phone.state.reboots).toBe(1);
      const list = await waitFor(async () => {
        const l = await h.caller(h.demo).device.commands({ serialNumber: MIA });
        return l.filter((c) => [lock.commandId, reboot.commandId].includes(c.id)).every((c) => c.status === "acknowledged") && l;
      });
      expect(list.find((c) => c.id === lock.commandId)?.type).toBe("LOCK");
    });

    it.each(FCM_ACTION_NAMES)("FCM-style action %s reaches the phone and is acknowledged", async (action) => {
      const phone = await h.phone(MIA);
      const r = await h.caller(h.demo).device.sendFcmCommand({ serialNumber: MIA, action, title: "Hi", message: "Msg", packageName: "com.duolingo" });
      expect(r.respones_msg).toMatch(/Mia's phone/);
      const got = await phone.waitForCommand(FCM_ACTIONS[action]);
      expect(got.payload).toMatchObject({ action, title: "Hi", message: "Msg", packageName: "com.duolingo" });
      await waitFor(async () => (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirst())?.status === "acknowledged");
      if (action === "Ring a Phone") expect(phone.state.ringing).toBe(true);
      if (action === "send_location") await waitFor(async () => (await h.tdb.db.selectFrom("device_locations").select("id").where("device_id", "=", phone.deviceId!).execute()).length >= 2);
    });

    it("refuses to uninstall the kids app and asks for a package name", async () => {
      await expect(h.caller(h.demo).device.sendFcmCommand({ serialNumber: MIA, action: "uninstall_app", packageName: "com.kidsportal.kidsapp" })).rejects.toThrow("You don't have permission to uninstall this app");
      await expect(h.caller(h.demo).device.sendFcmCommand({ serialNumber: MIA, action: "disable_app" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    });

    it("sync brings device details and installed apps; fetch logs brings a device log", async () => {
      const phone = await h.phone(LEO, { hardware: { brand: "Lenovo", model: "Tab M9", imei: "359999999999999", totalStorage: "256 GB" } });
      phone.state.installed.add("com.kidsportal.kidsapp").add("org.sim.newapp");
      const sync = await h.caller(h.demo).device.sync({ serialNumber: LEO });
      await waitFor(async () => (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", sync.commandId).executeTakeFirst())?.status === "acknowledged");
      const dev = await h.tdb.db.selectFrom("devices").selectAll().where("serial_number", "=", LEO).executeTakeFirstOrThrow();
      expect(dev).toMatchObject({ model: "Tab M9", imei: "359999999999999", total_storage: "256 GB", hardware: "tensor", baseband_version: expect.any(String), language_code: "en-GB", wifi_mac: expect.any(String), network_operator: "EE", phone_number: expect.any(String), total_ram: "8 GB", android_version: "14", manufacturer: "Google" });
      const apps = await h.tdb.db.selectFrom("profile_apps").select(["package_name", "is_installed", "play_store_category"]).where("device_id", "=", dev.id).execute();
      expect(apps.find((a) => a.package_name === "org.sim.newapp")).toMatchObject({ is_installed: 1, play_store_category: "Others" });
      expect(apps.filter((a) => a.is_installed === 1).length).toBe(2);
      const logs = await h.caller(h.demo).device.fetchLogs({ serialNumber: LEO });
      await waitFor(async () => (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", logs.commandId).executeTakeFirst())?.status === "acknowledged");
      const log = await h.tdb.db.selectFrom("device_logs").selectAll().where("device_id", "=", dev.id).executeTakeFirstOrThrow();
      expect(JSON.parse(log.details)).toMatchObject({ appVersion: "3.8.1" });
    });

    it("a phone offline at command time gets it on reconnect", async () => {
      const phone = await h.phone(MIA, { connect: false });
      // The phone enrolled but is not connected: make sure no other Mia connection exists.
      await waitFor(async () => !h.runtime.gateway.has(phone.deviceId!));
      const r = await h.caller(h.demo).device.issueCommand({ serialNumber: MIA, type: "LOCK" });
      expect(r.respones_msg).toMatch(/offline/);
      expect((await h.caller(h.demo).device.commands({ serialNumber: MIA })).find((c) => c.id === r.commandId)?.status).toBe("queued");
      await phone.connect();
      const got = await phone.waitForCommand("LOCK");
      expect(got.id).toBe(r.commandId);
      await waitFor(async () => (await h.caller(h.demo).device.commands({ serialNumber: MIA })).find((c) => c.id === r.commandId)?.status === "acknowledged");
    });

    it("an unacknowledged command is redelivered after a reconnect, and acknowledged once", async () => {
      const phone = await h.phone(LEO, { ignoreCommands: true, reconnect: false });
      const r = await h.caller(h.demo).device.issueCommand({ serialNumber: LEO, type: "REBOOT" });
      await phone.waitForCommand("REBOOT");
      expect((await h.caller(h.demo).device.commands({ serialNumber: LEO })).find((c) => c.id === r.commandId)?.status).toBe("sent");
      await phone.close();
      phone.opts.ignoreCommands = false;
      phone.received.length = 0;
      await phone.connect();
      const again = await phone.waitForCommand("REBOOT");
      expect(again.id).toBe(r.commandId);
      await waitFor(async () => (await h.caller(h.demo).device.commands({ serialNumber: LEO })).find((c) => c.id === r.commandId)?.status === "acknowledged");
      await phone.close();
    });

    it("an expired command shows as expired", async () => {
      const { deviceId } = await h.kid(h.other.serialNumber);
      const cmd = await issueCommand(h.runtime.deps, { deviceId, type: "RING", ttlMs: 300 });
      // Reads as expired as soon as it is overdue, and the expiry job closes the row.
      await waitFor(async () => (await h.caller(h.other).device.commands({ serialNumber: h.other.serialNumber })).find((c) => c.id === cmd.id)?.status === "expired", 5_000);
      await waitFor(async () => (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirstOrThrow()).status === "expired", 5_000);
      const row = await h.tdb.db.selectFrom("device_commands").selectAll().where("id", "=", cmd.id).executeTakeFirstOrThrow();
      expect(row.status).toBe("expired");
      expect(Date.parse(row.expires_at!) - Date.parse(row.created_at)).toBe(300);
      // The default one-shot lifetime is ten minutes.
      const normal = await h.caller(h.other).device.issueCommand({ serialNumber: h.other.serialNumber, type: "LOCK" });
      const n = await h.tdb.db.selectFrom("device_commands").selectAll().where("id", "=", normal.commandId).executeTakeFirstOrThrow();
      expect(Date.parse(n.expires_at!) - Date.parse(n.created_at)).toBe(10 * 60_000);
    });
  });

  describe("authorisation", () => {
    it("refuses a parent's command on another family's kid or phone with NOT_FOUND", async () => {
      const { profileId } = await h.kid(MIA);
      const other = h.caller(h.other);
      const attempts = [
        () => other.kids.setSleepMode({ profileId, sleepMode: true }),
        () => other.kids.setProtection({ profileId, serialNumber: MIA, kidsAppProtectionStatus: false }),
        () => other.kids.updateProfile({ profileId, kidName: "X", birthMonth: 1, birthYear: 2015 }),
        () => other.device.issueCommand({ serialNumber: MIA, type: "LOCK" }),
        () => other.device.sendFcmCommand({ serialNumber: MIA, action: "Ring a Phone" }),
        () => other.device.sync({ serialNumber: MIA }),
        () => other.device.fetchLogs({ serialNumber: MIA }),
        () => other.device.updateDevice({ serialNumber: MIA, enableLocationMapDisplay: false }),
        () => other.device.commands({ serialNumber: MIA }),
        () => other.settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 15 }),
        // own kid, someone else's phone
        () => other.kids.setProtection({ profileId: h.other.profileId, serialNumber: MIA, kidsAppProtectionStatus: false }),
      ];
      for (const a of attempts) {
        const err = await a().then(() => null, (e: unknown) => e);
        expect(err).toBeInstanceOf(TRPCError);
        expect((err as TRPCError).code).toBe("NOT_FOUND");
        expect((err as TRPCError).message).toMatch(/couldn't find this (kid|phone) in your account/);
      }
      const count = await h.tdb.db.selectFrom("device_commands").innerJoin("devices", "devices.id", "device_commands.device_id").select("device_commands.id").where("devices.serial_number", "=", MIA).where("issued_by", "=", h.other.id).execute();
      expect(count).toHaveLength(0);
      await expect(h.caller(null).device.sync({ serialNumber: MIA })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    });

    it("an accepted delegation allows it, a pending one does not", async () => {
      const ts = nowIso();
      const delegationId = newId();
      const { profileId } = await h.kid(LEO);
      await h.tdb.db.insertInto("delegations").values({ id: delegationId, owner_parent_id: h.demo.id, delegate_email: h.other.email, delegate_name: "Other", status: "Pending", created_at: ts, updated_at: ts }).execute();
      await h.tdb.db.insertInto("delegation_kids").values({ delegation_id: delegationId, profile_id: profileId }).execute();
      await expect(h.caller(h.other).device.commands({ serialNumber: LEO })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await h.tdb.db.updateTable("delegations").set({ status: "Accepted" }).where("id", "=", delegationId).execute();
      await expect(h.caller(h.other).device.commands({ serialNumber: LEO })).resolves.toBeInstanceOf(Array);
      await h.tdb.db.updateTable("delegations").set({ status: "Revoked" }).where("id", "=", delegationId).execute();
    });

    it("serves /trpc over HTTP with the parent's session", async () => {
      const token = await h.sessionFor(h.demo.id);
      const res = await fetch(`${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA, limit: 1 }))}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { result: { data: unknown[] } }).result.data).toHaveLength(1);
      const anon = await fetch(`${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA }))}`);
      expect(anon.status).toBe(401);
      const foreign = await fetch(`${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA }))}`, { headers: { Authorization: `Bearer ${await h.sessionFor(h.other.id)}` } });
      expect(foreign.status).toBe(404);
    });

    it("operators see /admin/queues, parents get 403, strangers 401", async () => {
      const op = await fetch(`${h.url}/admin/queues`, { headers: { Authorization: `Bearer ${await h.sessionFor(h.operator.id)}`, Accept: "application/json" } });
      expect(op.status).toBe(200);
      expect(((await op.json()) as { queues: { name: string }[] }).queues.map((q) => q.name)).toEqual(["kids-refresh", "command-expiry", "install-retry"]);
      const parent = await fetch(`${h.url}/admin/queues`, { headers: { Authorization: `Bearer ${await h.sessionFor(h.demo.id)}`, Accept: "application/json" } });
      expect(parent.status).toBe(403);
      const anon = await fetch(`${h.url}/admin/queues`, { headers: { Accept: "application/json" } });
      expect(anon.status).toBe(401);
    });
  });

  describe("policy and acknowledgement", () => {
    it("sleep mode sends a new policy version; acknowledgement turns it green; dashboards reload 2 s later", async () => {
      const { profileId, deviceId } = await h.kid(MIA);
      const phone = await h.phone(MIA, { ignoreCommands: true });
      const refreshes: { at: number; msg: BusMessage }[] = [];
      const unsub = h.bus.subscribe((m) => m.type === "parent.refresh" && m.profileId === profileId && refreshes.push({ at: Date.now(), msg: m }));
      const t0 = Date.now();
      const r = await h.caller(h.demo).kids.setSleepMode({ profileId, sleepMode: true });
      expect(r.respones_msg).toBe("Sleep mode is on. Waiting for Mia's phone to confirm.");
      expect(r.policyVersion).toBeGreaterThan(0);
      const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
      expect(cmd.payload).toMatchObject({ version: r.policyVersion, policy: { sleepMode: { enabled: true } } });
      let ack = await getAckState(h.tdb.db, deviceId);
      expect(ack).toMatchObject({ sleepModeAcknowledged: false, pendingPolicyVersion: r.policyVersion });
      await phone.execute(cmd);
      ack = await waitFor(async () => {
        const a = await getAckState(h.tdb.db, deviceId);
        return a.appliedPolicyVersion === r.policyVersion && a;
      });
      expect(ack).toMatchObject({ sleepModeAcknowledged: true, protectionAcknowledged: true, limitsAcknowledged: true });
      expect(refreshes.some((x) => x.msg.type === "parent.refresh" && x.msg.reason === "command.acknowledged" && x.msg.parentIds.includes(h.demo.id))).toBe(true);
      const delayed = await waitFor(async () => refreshes.find((x) => x.msg.type === "parent.refresh" && x.msg.reason === "reload.sleep-mode"), 5_000);
      expect(delayed.at - t0).toBeGreaterThanOrEqual(1_950);
      unsub();
      await h.caller(h.demo).kids.setSleepMode({ profileId, sleepMode: false });
    });

    it("protection with full access: policy, 3 s reload, acknowledgement via the reported policy version", async () => {
      const { profileId, deviceId } = await h.kid(LEO);
      const phone = await h.phone(LEO, { ignoreCommands: true });
      const reloads: number[] = [];
      const unsub = h.bus.subscribe((m) => m.type === "parent.refresh" && m.reason === "reload.protection" && m.profileId === profileId && reloads.push(Date.now()));
      const t0 = Date.now();
      const r = await h.caller(h.demo).kids.setProtection({ profileId, serialNumber: LEO, kidsAppProtectionStatus: true, allowFullAccess: true });
      expect(r.respones_msg).toMatch(/App protection is on\. Full settings access is allowed on Leo's phone\./);
      const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
      expect(cmd.payload).toMatchObject({ policy: { protection: { allowFullDeviceAccess: true, settingsLocked: false } } });
      expect((await getAckState(h.tdb.db, deviceId)).protectionAcknowledged).toBe(false);
      // The phone reports the policy it enforces in child_status: that acknowledges it too.
      await phone.send("child_status", { ...phone.statusData(), policyVersion: r.policyVersion });
      expect((await getAckState(h.tdb.db, deviceId)).protectionAcknowledged).toBe(true);
      await waitFor(async () => reloads.length > 0, 6_000);
      expect(reloads[0] - t0).toBeGreaterThanOrEqual(2_950);
      unsub();
      await h.caller(h.demo).kids.setProtection({ profileId, serialNumber: LEO, kidsAppProtectionStatus: true, allowFullAccess: false });
    });

    it("global daily limit: multiples of 15 only; a new limit is pending until acknowledged", async () => {
      const { deviceId } = await h.kid(MIA);
      await expect(h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 20 })).rejects.toThrow("Please enter time multiple of 15.");
      await expect(h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: -15 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      const phone = await h.phone(MIA, { ignoreCommands: true });
      const r = await h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 90 });
      expect(r.respones_msg).toBe("The global daily limit is 90 minutes on Mia's phone.");
      const a = await getAckState(h.tdb.db, deviceId);
      expect(a).toMatchObject({ limitsAcknowledged: false, pendingPolicyVersion: r.policyVersion });
      const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
      expect((cmd.payload.policy as { limits: { globalDailyLimitMinutes: number } }).limits.globalDailyLimitMinutes).toBe(90);
      await phone.execute(cmd);
      expect(await waitFor(async () => {
        const st = await getAckState(h.tdb.db, deviceId);
        return st.appliedPolicyVersion === r.policyVersion && st;
      })).toMatchObject({ limitsAcknowledged: true, sleepModeAcknowledged: true, protectionAcknowledged: true });
      // A superseded policy command is closed, not left pending.
      const r2 = await h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 0 });
      expect(r2.policyVersion).toBe(r.policyVersion + 1);
    });

    it("location settings and map display; tracking off stores interval 0", async () => {
      const { deviceId } = await h.kid(MIA);
      await expect(h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationTracking: true, locationTrackingInterval: 20 })).rejects.toThrow("Please enter time multiple of 15.");
      await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationTracking: true, locationTrackingInterval: 45 });
      expect(await h.tdb.db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst()).toMatchObject({ enable_location_tracking: 1, location_tracking_interval: 45 });
      const off = await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationTracking: false, locationTrackingInterval: 45 });
      expect(off.respones_msg).toBe("Location tracking is off.");
      expect(await h.tdb.db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst()).toMatchObject({ enable_location_tracking: 0, location_tracking_interval: 0 });
      await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationMapDisplay: false });
      expect((await h.tdb.db.selectFrom("devices").select("enable_location_map_display").where("id", "=", deviceId).executeTakeFirstOrThrow()).enable_location_map_display).toBe(0);
      await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationMapDisplay: true, enableLocationTracking: true, locationTrackingInterval: 15 });
    });

    it("kid profile update validates and stores the picture", async () => {
      const { profileId } = await h.kid(LEO);
      await expect(h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 13, birthYear: 2019 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: 1999 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: new Date().getUTCFullYear() + 1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      const png = Buffer.from("89504e470d0a1a0a", "hex").toString("base64");
      const r = await h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leon", birthMonth: 9, birthYear: 2019, picture: { mime: "image/png", base64: png } });
      expect(r.respones_msg).toBe("Leon's profile has been updated.");
      const row = await h.tdb.db.selectFrom("kid_profiles").selectAll().where("id", "=", profileId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: "Leon", birth_month: 9, picture_mime: "image/png" });
      expect(Buffer.from(row.picture!).toString("hex")).toBe("89504e470d0a1a0a");
      // Spec 1: up to 3 MB.
      const big = (bytes: number) => Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(bytes - 8)]).toString("base64");
      await expect(h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leon", birthMonth: 9, birthYear: 2019, picture: { mime: "image/png", base64: big(3 * 1024 * 1024) } })).resolves.toBeTruthy();
      await expect(h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leon", birthMonth: 9, birthYear: 2019, picture: { mime: "image/png", base64: big(3 * 1024 * 1024 + 1) } })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: 2019, picture: null });
      expect((await h.tdb.db.selectFrom("kid_profiles").select("picture").where("id", "=", profileId).executeTakeFirstOrThrow()).picture).toBeNull();
    });
  });

  describe("telemetry", () => {
    it("child_status updates battery, wifi, health with missing permissions, app version, protection, online", async () => {
      const phone = await h.phone(LEO, { status: { batteryPercentage: 12, wifiConnected: false, kidsAppStatus: "Unhealthy", missingPermissions: ["Usage access", "Accessibility"], appVersion: "3.9.9", protectionState: false } });
      const s = await h.tdb.db.selectFrom("device_status").selectAll().where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow();
      expect(s).toMatchObject({ battery_percentage: 12, wifi_connected: 0, kids_app_status: "Unhealthy", additional_data: "Usage access, Accessibility", app_version: "3.9.9", protection_state: 0, online: 1 });
      await phone.close();
      await waitFor(async () => (await h.tdb.db.selectFrom("device_status").select("online").where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow()).online === 0);
    });

    it("usage: hourly upsert and daily rollup; a retried upload never double counts", async () => {
      const phone = await h.phone(MIA);
      const hour = "2026-01-05T10:00:00.000Z";
      const frame = { buckets: [{ packageName: "com.sim.usage", hour, minutes: 20 }, { packageName: "com.sim.usage", hour: "2026-01-05T11:00:00.000Z", minutes: 5 }] };
      await phone.send("usage", frame, "usage-1");
      await phone.send("usage", frame, "usage-1"); // the same upload retried
      await phone.send("usage", frame); // and again under a new id
      const q = () => h.tdb.db.selectFrom("app_usage_daily").select("minutes").where("device_id", "=", phone.deviceId!).where("package_name", "=", "com.sim.usage").where("day", "=", "2026-01-05").executeTakeFirstOrThrow();
      expect((await q()).minutes).toBe(25);
      await phone.send("usage", { buckets: [{ packageName: "com.sim.usage", hour: "2026-01-05T10:30:00.000Z", minutes: 30 }] });
      expect((await q()).minutes).toBe(35);
      const hourly = await h.tdb.db.selectFrom("app_usage_hourly").selectAll().where("device_id", "=", phone.deviceId!).where("package_name", "=", "com.sim.usage").orderBy("hour").execute();
      expect(hourly.map((r) => [r.hour, r.minutes])).toEqual([
        [hour, 30],
        ["2026-01-05T11:00:00.000Z", 5],
      ]);
    });

    it("location, notification, app request, browser visit and device log are stored once per message id", async () => {
      const phone = await h.phone(MIA);
      const dev = phone.deviceId!;
      const db = h.tdb.db;
      await phone.send("location", { latitude: 51.1, longitude: -0.2, deviceTime: "2026-01-05T10:00:00Z" }, "loc-1");
      await phone.send("location", { latitude: 51.1, longitude: -0.2, deviceTime: "2026-01-05T10:00:00Z" }, "loc-1");
      expect(await db.selectFrom("device_locations").selectAll().where("device_id", "=", dev).where("latitude", "=", 51.1).execute()).toHaveLength(1);
      await phone.send("notification", { type: "low_battery", message: "Mia's phone battery is low.", packageName: "com.android.settings" }, "n-1");
      await phone.send("notification", { type: "low_battery", message: "Mia's phone battery is low.", packageName: "com.android.settings" }, "n-1");
      expect(await db.selectFrom("notifications").selectAll().where("device_id", "=", dev).where("package_name", "=", "com.android.settings").execute()).toHaveLength(1);
      await phone.send("app_request", { requestType: "Extend Time", packageName: "com.duolingo", extendedTime: 30, remarks: "homework" }, "req-1");
      await phone.send("app_request", { requestType: "Extend Time", packageName: "com.duolingo", extendedTime: 30, remarks: "homework" }, "req-1");
      const reqs = await db.selectFrom("app_requests").selectAll().where("device_id", "=", dev).execute();
      expect(reqs).toHaveLength(1);
      expect(reqs[0]).toMatchObject({ request_type: "Extend Time", status: "Pending", extended_time: 30, remarks: "homework" });
      expect(await db.selectFrom("notifications").select("message").where("device_id", "=", dev).where("type", "=", "app_request").executeTakeFirstOrThrow()).toMatchObject({ message: expect.stringMatching(/^Mia asked for 30 more minutes on /) });
      await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T10:00:00Z" }, "b-1");
      await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T10:00:00Z" }, "b-1");
      await phone.send("browser_visit", { url: "https://example.org/x", visitedAt: "2026-01-05T12:00:00Z" }, "b-2");
      expect(await db.selectFrom("browser_logs").selectAll().where("device_id", "=", dev).execute()).toMatchObject([{ url: "https://example.org/x", day: "2026-01-05", visits: 2, is_blocked: 0 }]);
      await phone.send("device_log", { title: "crash", details: { key: "value", list: ["a", "b"] } }, "log-1");
      expect(JSON.parse((await db.selectFrom("device_logs").selectAll().where("device_id", "=", dev).where("title", "=", "crash").executeTakeFirstOrThrow()).details)).toEqual({ key: "value", list: ["a", "b"] });
    });

    it("device_info stores every /device-info field and refuses another phone's serial", async () => {
      const phone = await h.phone(LEO);
      const info = { serialNumber: LEO, brand: "B", model: "M", hardware: "H", basebandVersion: "BB", manufacturer: "MF", androidVersion: "15", languageCode: "de-DE", imei: "1234", wifiMac: "aa:bb", networkOperator: "O2", phoneNumber: "+44 1", totalRam: "2 GB", totalStorage: "32 GB", batteryLevel: 33, batteryCheckedAt: "2026-01-05T10:00:00Z" };
      await phone.send("device_info", info);
      const d = await h.tdb.db.selectFrom("devices").selectAll().where("id", "=", phone.deviceId!).executeTakeFirstOrThrow();
      expect(d).toMatchObject({ brand: "B", model: "M", hardware: "H", baseband_version: "BB", manufacturer: "MF", android_version: "15", language_code: "de-DE", imei: "1234", wifi_mac: "aa:bb", network_operator: "O2", phone_number: "+44 1", total_ram: "2 GB", total_storage: "32 GB" });
      expect(await h.tdb.db.selectFrom("device_status").selectAll().where("device_id", "=", phone.deviceId!).executeTakeFirstOrThrow()).toMatchObject({ battery_percentage: 33, battery_checked_at: "2026-01-05T10:00:00.000Z" });
      await expect(phone.send("device_info", { ...info, serialNumber: MIA })).rejects.toThrow(/SERIAL_MISMATCH/);
    });

    it("install results: success, and every spec 2 §8 failure reason; unknown failures are retried", async () => {
      const { deviceId } = await h.kid(MIA);
      const phone = await h.phone(MIA, { failInstalls: { "com.fail.unknown": "INSTALLATION_FAILURE_REASON_UNKNOWN" } });
      const ok = await h.caller(h.demo).device.installApp({ serialNumber: MIA, packageName: "com.ok.install" });
      await waitFor(async () => (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", ok.commandId).executeTakeFirst())?.status === "acknowledged");
      expect(await h.tdb.db.selectFrom("profile_apps").select("is_installed").where("device_id", "=", deviceId).where("package_name", "=", "com.ok.install").executeTakeFirst()).toEqual({ is_installed: 1 });
      const reasons = ["IN_PROGRESS", "NOT_FOUND", "NOT_COMPATIBLE_WITH_DEVICE", "NOT_APPROVED", "PERMISSIONS_NOT_ACCEPTED", "NOT_AVAILABLE_IN_COUNTRY", "NO_LICENSES_REMAINING", "NOT_ENROLLED", "USER_INVALID", "NETWORK_ERROR_UNRELIABLE_CONNECTION", "INSUFFICIENT_STORAGE"];
      for (const reason of reasons) {
        await phone.send("install_result", { status: "FAILED", packageName: "com.ok.install", failureReason: reason });
        expect(await h.tdb.db.selectFrom("profile_apps").select(["installation_failure_reason", "is_installed"]).where("device_id", "=", deviceId).where("package_name", "=", "com.ok.install").executeTakeFirst()).toEqual({ installation_failure_reason: reason, is_installed: 0 });
      }
      await expect(phone.send("install_result", { status: "FAILED", packageName: "com.ok.install", failureReason: "SOMETHING_ELSE" })).rejects.toThrow(/INVALID/);
      expect(await h.tdb.db.selectFrom("install_retries").selectAll().where("device_id", "=", deviceId).where("package_name", "=", "com.ok.install").execute()).toHaveLength(0);
      // An unknown failure gets a retry row (the job's state) and a retry job.
      await h.tdb.db.insertInto("profile_apps").values({ id: newId(), profile_id: (await h.kid(MIA)).profileId, device_id: deviceId, package_name: "com.fail.unknown", disabled_type: null, installation_failure_reason: null, is_installed: 0, created_at: nowIso(), updated_at: nowIso() }).execute();
      await h.caller(h.demo).device.installApp({ serialNumber: MIA, packageName: "com.fail.unknown" });
      const retry = await waitFor(async () => h.tdb.db.selectFrom("install_retries").selectAll().where("device_id", "=", deviceId).where("package_name", "=", "com.fail.unknown").executeTakeFirst());
      expect(retry).toMatchObject({ status: "pending", attempts: 1, reason: "INSTALLATION_FAILURE_REASON_UNKNOWN" });
      expect((await h.runtime.jobs.counts()).find((c) => c.name === "install-retry")!.delayed).toBeGreaterThan(0);
    });
  });
});
