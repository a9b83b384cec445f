import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { newId, nowIso } from "../core/ids.server";
import { issueCommand } from "./commands/outbox";
import { FCM_ACTIONS, FCM_ACTION_NAMES } from "./commands/types";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Commands from a parent to a phone, and who may send them.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

describe.each(DIALECTS)("device service: commands and authorisation on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
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
      const r = await h
        .caller(h.demo)
        .device.sendFcmCommand({ serialNumber: MIA, action, title: "Hi", message: "Msg", packageName: "com.duolingo" });
      expect(r.respones_msg).toMatch(/Mia's phone/);
      const got = await phone.waitForCommand(FCM_ACTIONS[action]);
      expect(got.payload).toMatchObject({ action, title: "Hi", message: "Msg", packageName: "com.duolingo" });
      await waitFor(
        async () =>
          (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", r.commandId).executeTakeFirst())?.status ===
          "acknowledged",
      );
      if (action === "Ring a Phone") expect(phone.state.ringing).toBe(true);
      if (action === "send_location")
        await waitFor(
          async () =>
            (await h.tdb.db.selectFrom("device_locations").select("id").where("device_id", "=", phone.deviceId!).execute()).length >= 2,
        );
    });

    it("refuses to uninstall the kids app and asks for a package name", async () => {
      await expect(
        h.caller(h.demo).device.sendFcmCommand({ serialNumber: MIA, action: "uninstall_app", packageName: "com.kidsportal.kidsapp" }),
      ).rejects.toThrow("You don't have permission to uninstall this app");
      await expect(h.caller(h.demo).device.sendFcmCommand({ serialNumber: MIA, action: "disable_app" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    });

    it("sync brings device details and installed apps; fetch logs brings a device log", async () => {
      const phone = await h.phone(LEO, { hardware: { brand: "Lenovo", model: "Tab M9", imei: "359999999999999", totalStorage: "256 GB" } });
      phone.state.installed.add("com.kidsportal.kidsapp").add("org.sim.newapp");
      const sync = await h.caller(h.demo).device.sync({ serialNumber: LEO });
      await waitFor(
        async () =>
          (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", sync.commandId).executeTakeFirst())?.status ===
          "acknowledged",
      );
      const dev = await h.tdb.db.selectFrom("devices").selectAll().where("serial_number", "=", LEO).executeTakeFirstOrThrow();
      expect(dev).toMatchObject({
        model: "Tab M9",
        imei: "359999999999999",
        total_storage: "256 GB",
        hardware: "tensor",
        baseband_version: expect.any(String),
        language_code: "en-GB",
        wifi_mac: expect.any(String),
        network_operator: "EE",
        phone_number: expect.any(String),
        total_ram: "8 GB",
        android_version: "14",
        manufacturer: "Google",
      });
      const apps = await h.tdb.db
        .selectFrom("profile_apps")
        .select(["package_name", "is_installed", "play_store_category"])
        .where("device_id", "=", dev.id)
        .execute();
      expect(apps.find((a) => a.package_name === "org.sim.newapp")).toMatchObject({ is_installed: 1, play_store_category: "Others" });
      expect(apps.filter((a) => a.is_installed === 1).length).toBe(2);
      const logs = await h.caller(h.demo).device.fetchLogs({ serialNumber: LEO });
      await waitFor(
        async () =>
          (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", logs.commandId).executeTakeFirst())?.status ===
          "acknowledged",
      );
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
      await waitFor(
        async () =>
          (await h.caller(h.demo).device.commands({ serialNumber: MIA })).find((c) => c.id === r.commandId)?.status === "acknowledged",
      );
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
      await waitFor(
        async () =>
          (await h.caller(h.demo).device.commands({ serialNumber: LEO })).find((c) => c.id === r.commandId)?.status === "acknowledged",
      );
      await phone.close();
    });

    it("an expired command shows as expired", async () => {
      const { deviceId } = await h.kid(h.other.serialNumber);
      const cmd = await issueCommand(h.runtime.deps, { deviceId, type: "RING", ttlMs: 300 });
      // Reads as expired as soon as it is overdue, and the expiry job closes the row.
      await waitFor(
        async () =>
          (await h.caller(h.other).device.commands({ serialNumber: h.other.serialNumber })).find((c) => c.id === cmd.id)?.status ===
          "expired",
        5_000,
      );
      await waitFor(
        async () =>
          (await h.tdb.db.selectFrom("device_commands").select("status").where("id", "=", cmd.id).executeTakeFirstOrThrow()).status ===
          "expired",
        5_000,
      );
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
        const err = await a().then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(TRPCError);
        expect((err as TRPCError).code).toBe("NOT_FOUND");
        expect((err as TRPCError).message).toMatch(/couldn't find this (kid|phone) in your account/);
      }
      const count = await h.tdb.db
        .selectFrom("device_commands")
        .innerJoin("devices", "devices.id", "device_commands.device_id")
        .select("device_commands.id")
        .where("devices.serial_number", "=", MIA)
        .where("issued_by", "=", h.other.id)
        .execute();
      expect(count).toHaveLength(0);
      await expect(h.caller(null).device.sync({ serialNumber: MIA })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    });

    it("an accepted delegation allows it, a pending one does not", async () => {
      const ts = nowIso();
      const delegationId = newId();
      const { profileId } = await h.kid(LEO);
      await h.tdb.db
        .insertInto("delegations")
        .values({
          id: delegationId,
          owner_parent_id: h.demo.id,
          delegate_email: h.other.email,
          delegate_name: "Other",
          status: "Pending",
          created_at: ts,
          updated_at: ts,
        })
        .execute();
      await h.tdb.db.insertInto("delegation_kids").values({ delegation_id: delegationId, profile_id: profileId }).execute();
      await expect(h.caller(h.other).device.commands({ serialNumber: LEO })).rejects.toMatchObject({ code: "NOT_FOUND" });
      await h.tdb.db.updateTable("delegations").set({ status: "Accepted" }).where("id", "=", delegationId).execute();
      await expect(h.caller(h.other).device.commands({ serialNumber: LEO })).resolves.toBeInstanceOf(Array);
      await h.tdb.db.updateTable("delegations").set({ status: "Revoked" }).where("id", "=", delegationId).execute();
    });

    it("serves /trpc over HTTP with the parent's session", async () => {
      const token = await h.sessionFor(h.demo.id);
      const res = await fetch(
        `${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA, limit: 1 }))}`,
        { headers: { Authorization: `Bearer ${token}` } },
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { result: { data: unknown[] } }).result.data).toHaveLength(1);
      const anon = await fetch(`${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA }))}`);
      expect(anon.status).toBe(401);
      const foreign = await fetch(`${h.url}/trpc/device.commands?input=${encodeURIComponent(JSON.stringify({ serialNumber: MIA }))}`, {
        headers: { Authorization: `Bearer ${await h.sessionFor(h.other.id)}` },
      });
      expect(foreign.status).toBe(404);
    });

    it("operators see /admin/queues, parents get 403, strangers 401", async () => {
      const op = await fetch(`${h.url}/admin/queues`, {
        headers: { Authorization: `Bearer ${await h.sessionFor(h.operator.id)}`, Accept: "application/json" },
      });
      expect(op.status).toBe(200);
      expect(((await op.json()) as { queues: { name: string }[] }).queues.map((q) => q.name)).toEqual([
        "kids-refresh",
        "command-expiry",
        "install-retry",
        "daily-reset",
        "reports",
        "webhook-delivery",
        "webhook-sweep",
        "alert-delivery",
        "alert-tick",
      ]);
      const parent = await fetch(`${h.url}/admin/queues`, {
        headers: { Authorization: `Bearer ${await h.sessionFor(h.demo.id)}`, Accept: "application/json" },
      });
      expect(parent.status).toBe(403);
      const anon = await fetch(`${h.url}/admin/queues`, { headers: { Accept: "application/json" } });
      expect(anon.status).toBe(401);
    });
  });
});
