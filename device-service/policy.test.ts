import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../db/index.testing";
import { getAckState } from "./ack";
import type { BusMessage } from "./bus";
import { startHarness, waitFor, type Harness } from "../server/harness.testing";

// Settings that become a policy version, and the phone's acknowledgement of it.
const MIA = "DEMO-MIA-0001";
const LEO = "DEMO-LEO-0002";

describe.each(DIALECTS)("device service: policy and acknowledgement on %s", (dialect) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ dialect });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  describe("policy and acknowledgement", () => {
    it("sleep mode sends a new policy version; acknowledgement turns it green; dashboards reload 2 s later", async () => {
      const { profileId, deviceId } = await h.kid(MIA);
      const phone = await h.phone(MIA, { ignoreCommands: true });
      const refreshes: { at: number; msg: BusMessage }[] = [];
      const unsub = h.bus.subscribe(
        (m) => m.type === "parent.refresh" && m.profileId === profileId && refreshes.push({ at: Date.now(), msg: m }),
      );
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
      expect(
        refreshes.some(
          (x) => x.msg.type === "parent.refresh" && x.msg.reason === "command.acknowledged" && x.msg.parentIds.includes(h.demo.id),
        ),
      ).toBe(true);
      const delayed = await waitFor(
        async () => refreshes.find((x) => x.msg.type === "parent.refresh" && x.msg.reason === "reload.sleep-mode"),
        5_000,
      );
      expect(delayed.at - t0).toBeGreaterThanOrEqual(1_950);
      unsub();
      await h.caller(h.demo).kids.setSleepMode({ profileId, sleepMode: false });
    });

    it("protection with full access: policy, 3 s reload, acknowledgement via the reported policy version", async () => {
      const { profileId, deviceId } = await h.kid(LEO);
      const phone = await h.phone(LEO, { ignoreCommands: true });
      const reloads: number[] = [];
      const unsub = h.bus.subscribe(
        (m) => m.type === "parent.refresh" && m.reason === "reload.protection" && m.profileId === profileId && reloads.push(Date.now()),
      );
      const t0 = Date.now();
      const r = await h
        .caller(h.demo)
        .kids.setProtection({ profileId, serialNumber: LEO, kidsAppProtectionStatus: true, allowFullAccess: true });
      // The toast says what the dashboard then shows (its banner: "protections are off"), never "App protection is on".
      expect(r.respones_msg).toMatch(/^Full device access is allowed: protections are off on Leo's phone\./);
      expect(r.respones_msg).not.toContain("App protection is on");
      const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
      expect(cmd.payload).toMatchObject({ policy: { protection: { allowFullDeviceAccess: true, settingsLocked: false } } });
      expect((await getAckState(h.tdb.db, deviceId)).protectionAcknowledged).toBe(false);
      // The phone reports the policy it enforces in child_status: that acknowledges it too.
      await phone.send("child_status", { ...phone.statusData(), policyVersion: r.policyVersion });
      expect((await getAckState(h.tdb.db, deviceId)).protectionAcknowledged).toBe(true);
      await waitFor(async () => reloads.length > 0, 6_000);
      expect(reloads[0] - t0).toBeGreaterThanOrEqual(2_950);
      unsub();
      const off = await h
        .caller(h.demo)
        .kids.setProtection({ profileId, serialNumber: LEO, kidsAppProtectionStatus: true, allowFullAccess: false });
      expect(off.respones_msg).toMatch(/^Full device access is off: protections are back on Leo's phone\./);
    });

    it("global daily limit: multiples of 15 only; a new limit is pending until acknowledged", async () => {
      const { deviceId } = await h.kid(MIA);
      await expect(h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 20 })).rejects.toThrow(
        "Please enter time multiple of 15.",
      );
      await expect(h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: -15 })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
      const phone = await h.phone(MIA, { ignoreCommands: true });
      const r = await h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 90 });
      expect(r.respones_msg).toBe("The global daily limit is 90 minutes on Mia's phone.");
      const a = await getAckState(h.tdb.db, deviceId);
      expect(a).toMatchObject({ limitsAcknowledged: false, pendingPolicyVersion: r.policyVersion });
      const cmd = await phone.waitForCommand("APPLY_POLICY", 5_000, (c) => c.payload.version === r.policyVersion);
      expect((cmd.payload.policy as { limits: { globalDailyLimitMinutes: number } }).limits.globalDailyLimitMinutes).toBe(90);
      await phone.execute(cmd);
      expect(
        await waitFor(async () => {
          const st = await getAckState(h.tdb.db, deviceId);
          return st.appliedPolicyVersion === r.policyVersion && st;
        }),
      ).toMatchObject({ limitsAcknowledged: true, sleepModeAcknowledged: true, protectionAcknowledged: true });
      // A superseded policy command is closed, not left pending.
      const r2 = await h.caller(h.demo).settings.setGlobalDailyLimit({ serialNumber: MIA, minutes: 0 });
      expect(r2.policyVersion).toBe(r.policyVersion + 1);
    });

    it("location settings and map display; tracking off stores interval 0", async () => {
      const { deviceId } = await h.kid(MIA);
      await expect(
        h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationTracking: true, locationTrackingInterval: 20 }),
      ).rejects.toThrow("Please enter time multiple of 15.");
      await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationTracking: true, locationTrackingInterval: 45 });
      expect(await h.tdb.db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst()).toMatchObject(
        { enable_location_tracking: 1, location_tracking_interval: 45 },
      );
      const off = await h
        .caller(h.demo)
        .device.updateDevice({ serialNumber: MIA, enableLocationTracking: false, locationTrackingInterval: 45 });
      expect(off.respones_msg).toBe("Location tracking is off.");
      expect(await h.tdb.db.selectFrom("location_settings").selectAll().where("device_id", "=", deviceId).executeTakeFirst()).toMatchObject(
        { enable_location_tracking: 0, location_tracking_interval: 0 },
      );
      await h.caller(h.demo).device.updateDevice({ serialNumber: MIA, enableLocationMapDisplay: false });
      expect(
        (await h.tdb.db.selectFrom("devices").select("enable_location_map_display").where("id", "=", deviceId).executeTakeFirstOrThrow())
          .enable_location_map_display,
      ).toBe(0);
      await h.caller(h.demo).device.updateDevice({
        serialNumber: MIA,
        enableLocationMapDisplay: true,
        enableLocationTracking: true,
        locationTrackingInterval: 15,
      });
    });

    it("kid profile update validates and stores the picture", async () => {
      const { profileId } = await h.kid(LEO);
      await expect(
        h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 13, birthYear: 2019 }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: 1999 }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await expect(
        h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: new Date().getUTCFullYear() + 1 }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      // A real PNG with metadata: stored re-encoded (issue 52), as a JPEG of at most 512 px without it.
      const png = (
        await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#47a" } })
          .withExif({ IFD0: { ImageDescription: "home 51.5072 N" } })
          .png()
          .toBuffer()
      ).toString("base64");
      const r = await h
        .caller(h.demo)
        .kids.updateProfile({ profileId, kidName: "Leon", birthMonth: 9, birthYear: 2019, picture: { mime: "image/png", base64: png } });
      expect(r.respones_msg).toBe("Leon's profile has been updated.");
      const row = await h.tdb.db.selectFrom("kid_profiles").selectAll().where("id", "=", profileId).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: "Leon", birth_month: 9, picture_mime: "image/jpeg" });
      const stored = await sharp(Buffer.from(row.picture!)).metadata();
      expect(stored).toMatchObject({ format: "jpeg", width: 512, height: 341 });
      expect(stored.exif).toBeUndefined();
      expect(Buffer.from(row.picture!).includes(Buffer.from("51.5072"))).toBe(false);
      // Bytes that only start like a PNG are refused with a message, and the stored picture is kept.
      const big = (bytes: number) => Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(bytes - 8)]).toString("base64");
      await expect(
        h.caller(h.demo).kids.updateProfile({
          profileId,
          kidName: "Leon",
          birthMonth: 9,
          birthYear: 2019,
          picture: { mime: "image/png", base64: big(3 * 1024 * 1024) },
        }),
      ).rejects.toMatchObject({
        code: "BAD_REQUEST",
        message: "The picture could not be read. Please choose another photo (PNG, JPEG, GIF or WebP).",
      });
      expect(
        (await h.tdb.db.selectFrom("kid_profiles").select("picture_mime").where("id", "=", profileId).executeTakeFirstOrThrow())
          .picture_mime,
      ).toBe("image/jpeg");
      await expect(
        h.caller(h.demo).kids.updateProfile({
          profileId,
          kidName: "Leon",
          birthMonth: 9,
          birthYear: 2019,
          picture: { mime: "image/png", base64: big(3 * 1024 * 1024 + 1) },
        }),
      ).rejects.toMatchObject({ code: "BAD_REQUEST" });
      await h.caller(h.demo).kids.updateProfile({ profileId, kidName: "Leo", birthMonth: 8, birthYear: 2019, picture: null });
      expect(
        (await h.tdb.db.selectFrom("kid_profiles").select("picture").where("id", "=", profileId).executeTakeFirstOrThrow()).picture,
      ).toBeNull();
    });
  });
});
