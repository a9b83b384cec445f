import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { birthMonth, birthYear, kidName, serialNumber } from "../../core/values";
import { nowIso } from "../../core/ids.server";
import { retryOnConflict } from "../../db/retry";
import type { DeviceServiceDeps } from "../context";
import { possessive, waitingFor } from "../messages";
import { MAX_PICTURE_BYTES } from "../pictures";
import { reencodePicture } from "../pictures.server";
import { applyPolicy } from "../policy/store";
import { kidProcedure, router, NOT_YOUR_DEVICE } from "../trpc";
import { unenrollDevice } from "../unenroll";
import { isOnline } from "./online";

export const SLEEP_REFRESH_MS = 2_000;
export const PROTECTION_REFRESH_MS = 3_000;

async function scheduleRefresh(deps: DeviceServiceDeps, profileId: string, reason: string, delayMs: number) {
  if (!deps.jobs) return;
  await deps.jobs.enqueue("kids-refresh", { profileId, reason }, { delayMs }).catch((err: unknown) => {
    deps.log("warn", "kids-refresh not scheduled", { profileId, error: err instanceof Error ? err.message : String(err) });
  });
}

export const kidsRouter = router({
  /** Sleep mode: stores it, applies the new policy to the kid's phones, reloads dashboards 2 s later. */
  setSleepMode: kidProcedure.input(z.object({ sleepMode: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.db
      .updateTable("kid_profiles")
      .set({ sleep_mode: input.sleepMode ? 1 : 0, sleep_mode_by: ctx.parent.id, updated_at: nowIso() })
      .where("id", "=", ctx.kid.id)
      .execute();
    // Enrolled phones only: a removed phone (replaced, or its enroller's access revoked) gets no policy.
    const devices = await ctx.db
      .selectFrom("devices")
      .select("id")
      .where("profile_id", "=", ctx.kid.id)
      .where("unenrolled_at", "is", null)
      .orderBy("created_at")
      .execute();
    let first: { commandId: string; policyVersion: number } | null = null;
    let online = false;
    for (const d of devices) {
      const applied = await applyPolicy(ctx, d.id, ctx.parent.id);
      first ??= { commandId: applied.commandId, policyVersion: applied.version };
      online ||= await isOnline(ctx.db, d.id);
    }
    await scheduleRefresh(ctx, ctx.kid.id, "sleep-mode", SLEEP_REFRESH_MS);
    const state = input.sleepMode ? "Sleep mode is on." : "Sleep mode is off.";
    return {
      respones_msg: devices.length ? `${state} ${waitingFor(ctx.kid.name, online)}` : `${state} ${ctx.kid.name} has no phone yet.`,
      commandId: first?.commandId ?? null,
      policyVersion: first?.policyVersion ?? null,
    };
  }),

  /** App-settings protection (and, from global settings, allow full access); reloads dashboards 3 s later. */
  setProtection: kidProcedure
    .input(z.object({ serialNumber, kidsAppProtectionStatus: z.boolean(), allowFullAccess: z.boolean().optional() }))
    .mutation(async ({ ctx, input }) => {
      const device = await ctx.db
        .selectFrom("devices")
        .select(["id", "allow_full_device_access"])
        .where("serial_number", "=", input.serialNumber)
        .where("profile_id", "=", ctx.kid.id)
        .where("unenrolled_at", "is", null)
        .executeTakeFirst();
      if (!device) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_DEVICE });
      await ctx.db
        .updateTable("devices")
        .set({
          protection_enabled: input.kidsAppProtectionStatus ? 1 : 0,
          ...(input.allowFullAccess === undefined ? {} : { allow_full_device_access: input.allowFullAccess ? 1 : 0 }),
          settings_updated_by: ctx.parent.id,
          updated_at: nowIso(),
        })
        .where("id", "=", device.id)
        .execute();
      const applied = await applyPolicy(ctx, device.id, ctx.parent.id);
      await scheduleRefresh(ctx, ctx.kid.id, "protection", PROTECTION_REFRESH_MS);
      const online = await isOnline(ctx.db, device.id);
      // From Global Settings (allowFullAccess given) the toast speaks of full access in the dashboard banner's words:
      // with it allowed the protections are off, whatever the protection switch says.
      const phone = `${possessive(ctx.kid.name)} phone`;
      const parts =
        input.allowFullAccess === undefined
          ? [input.kidsAppProtectionStatus ? "App protection is on." : "App protection is off."]
          : [
              input.allowFullAccess
                ? `Full device access is allowed: protections are off on ${phone}.`
                : input.kidsAppProtectionStatus
                  ? `Full device access is off: protections are back on ${phone}.`
                  : "Full device access is off. App protection is off.",
            ];
      parts.push(waitingFor(ctx.kid.name, online));
      return { respones_msg: parts.join(" "), policyVersion: applied.version };
    }),

  updateProfile: kidProcedure
    .input(
      z.object({
        kidName,
        birthMonth,
        // The current year when the call is made, not when the module loaded.
        birthYear: z.lazy(() => birthYear()),
        // `mime` is the caller's claim and is not trusted: the stored type is read from the bytes.
        picture: z
          .object({ mime: z.string().max(100).optional(), base64: z.string().max(Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 4) })
          .nullable()
          .optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      let picture: { picture_mime: string | null; picture: Buffer | null } | Record<string, never> = {};
      if (input.picture === null) picture = { picture_mime: null, picture: null };
      else if (input.picture) {
        const bytes = Buffer.from(input.picture.base64, "base64");
        if (bytes.length > MAX_PICTURE_BYTES) throw new TRPCError({ code: "BAD_REQUEST", message: "The picture must be 3 MB or smaller." });
        // Stored only as re-encoded here, whoever the caller: a JPEG of at most 512 px with no metadata (issue 52).
        const reencoded = await reencodePicture(bytes);
        if (!reencoded.ok) throw new TRPCError({ code: "BAD_REQUEST", message: reencoded.message });
        picture = { picture_mime: reencoded.mime, picture: reencoded.bytes };
      }
      await ctx.db
        .updateTable("kid_profiles")
        .set({
          name: input.kidName,
          birth_month: input.birthMonth,
          birth_year: input.birthYear,
          ...picture,
          updated_by: ctx.parent.id,
          updated_at: nowIso(),
        })
        .where("id", "=", ctx.kid.id)
        .execute();
      return { respones_msg: `${possessive(input.kidName)} profile has been updated.` };
    }),

  /**
   * Removes the kid: its phones are unenrolled first (sockets closed, commands ended), then the profile and
   * everything under it (phones, usage, apps and limits, locations, notifications) is deleted. Owner only.
   */
  remove: kidProcedure.mutation(async ({ ctx }) => {
    if (ctx.kid.parent_id !== ctx.parent.id)
      throw new TRPCError({ code: "FORBIDDEN", message: `Only ${possessive(ctx.kid.name)} own parent can remove ${ctx.kid.name}.` });
    const devices = await ctx.db
      .selectFrom("devices")
      .select("id")
      .where("profile_id", "=", ctx.kid.id)
      .where("unenrolled_at", "is", null)
      .execute();
    for (const d of devices) await unenrollDevice(ctx, d.id);
    // The cascade meets a phone's last telemetry in the other lock order (view_rev triggers): run it again then.
    await retryOnConflict(() => ctx.db.deleteFrom("kid_profiles").where("id", "=", ctx.kid.id).execute());
    // The kid's filter id went with the profile: every process serving the web filter refuses it from now on.
    await ctx.bus.publish({ type: "web-filter.kid", profileId: ctx.kid.id }).catch((err: unknown) => {
      ctx.log("warn", "web-filter.kid not published", { profileId: ctx.kid.id, error: err instanceof Error ? err.message : String(err) });
    });
    ctx.log("info", "kid removed", { profileId: ctx.kid.id, by: ctx.parent.id, phones: devices.length });
    return { respones_msg: `${ctx.kid.name} was removed from your account.` };
  }),
});
