import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { nowIso } from "../../db/queries/ids";
import type { DeviceServiceDeps } from "../context";
import { possessive, waitingFor } from "../messages";
import { applyPolicy } from "../policy/store";
import { kidProcedure, router, NOT_YOUR_DEVICE } from "../trpc";
import { isOnline } from "./helpers";

export const SLEEP_REFRESH_MS = 2_000;
export const PROTECTION_REFRESH_MS = 3_000;

// Spec 1: the kid picture is at most 3 MB (the web form checks the same limit first).
const MAX_PICTURE_BYTES = 3 * 1024 * 1024;
const PICTURE_MIMES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;

async function scheduleRefresh(deps: DeviceServiceDeps, profileId: string, reason: string, delayMs: number) {
  if (!deps.jobs) return;
  await deps.jobs.enqueue("kids-refresh", { profileId, reason }, { delayMs }).catch((err: unknown) => {
    deps.log("warn", "kids-refresh not scheduled", { profileId, error: err instanceof Error ? err.message : String(err) });
  });
}

export const kidsRouter = router({
  /** Sleep mode: stores it, applies the new policy to the kid's phones, reloads dashboards 2 s later. */
  setSleepMode: kidProcedure.input(z.object({ sleepMode: z.boolean() })).mutation(async ({ ctx, input }) => {
    await ctx.db.updateTable("kid_profiles").set({ sleep_mode: input.sleepMode ? 1 : 0, updated_at: nowIso() }).where("id", "=", ctx.kid.id).execute();
    const devices = await ctx.db.selectFrom("devices").select("id").where("profile_id", "=", ctx.kid.id).orderBy("created_at").execute();
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
    .input(z.object({ serialNumber: z.string().trim().min(1).max(64), kidsAppProtectionStatus: z.boolean(), allowFullAccess: z.boolean().optional() }))
    .mutation(async ({ ctx, input }) => {
      const device = await ctx.db.selectFrom("devices").select(["id", "allow_full_device_access"]).where("serial_number", "=", input.serialNumber).where("profile_id", "=", ctx.kid.id).executeTakeFirst();
      if (!device) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_DEVICE });
      await ctx.db
        .updateTable("devices")
        .set({
          protection_enabled: input.kidsAppProtectionStatus ? 1 : 0,
          ...(input.allowFullAccess === undefined ? {} : { allow_full_device_access: input.allowFullAccess ? 1 : 0 }),
          updated_at: nowIso(),
        })
        .where("id", "=", device.id)
        .execute();
      const applied = await applyPolicy(ctx, device.id, ctx.parent.id);
      await scheduleRefresh(ctx, ctx.kid.id, "protection", PROTECTION_REFRESH_MS);
      const online = await isOnline(ctx.db, device.id);
      const parts = [input.kidsAppProtectionStatus ? "App protection is on." : "App protection is off."];
      if (input.allowFullAccess !== undefined && input.allowFullAccess !== (device.allow_full_device_access === 1)) {
        parts.push(input.allowFullAccess ? `Full settings access is allowed on ${possessive(ctx.kid.name)} phone.` : "Full settings access is turned off.");
      }
      parts.push(waitingFor(ctx.kid.name, online));
      return { respones_msg: parts.join(" "), policyVersion: applied.version };
    }),

  updateProfile: kidProcedure
    .input(
      z.object({
        kidName: z.string().trim().min(1, "Please enter the kid's name.").max(50),
        birthMonth: z.number().int().min(1).max(12),
        birthYear: z.number().int().min(2000).refine((y) => y <= new Date().getUTCFullYear(), "Birth year cannot be in the future."),
        picture: z.object({ mime: z.string().max(100), base64: z.string().max(Math.ceil((MAX_PICTURE_BYTES * 4) / 3) + 4) }).nullable().optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      let picture: { picture_mime: string | null; picture: Buffer | null } | Record<string, never> = {};
      if (input.picture === null) picture = { picture_mime: null, picture: null };
      else if (input.picture) {
        if (!(PICTURE_MIMES as readonly string[]).includes(input.picture.mime)) throw new TRPCError({ code: "BAD_REQUEST", message: "The picture must be a PNG, JPEG, WebP or GIF image." });
        const bytes = Buffer.from(input.picture.base64, "base64");
        if (bytes.length === 0 || bytes.length > MAX_PICTURE_BYTES) throw new TRPCError({ code: "BAD_REQUEST", message: "The picture must be 3 MB or smaller." });
        picture = { picture_mime: input.picture.mime, picture: bytes };
      }
      await ctx.db
        .updateTable("kid_profiles")
        .set({ name: input.kidName, birth_month: input.birthMonth, birth_year: input.birthYear, ...picture, updated_at: nowIso() })
        .where("id", "=", ctx.kid.id)
        .execute();
      return { respones_msg: `${possessive(input.kidName)} profile has been updated.` };
    }),
});
