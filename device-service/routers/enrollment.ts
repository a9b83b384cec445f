import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createEnrollmentToken } from "../enrollment";
import { possessive } from "../messages";
import { kidProcedure, router, NOT_YOUR_DEVICE } from "../trpc";
import { unenrollDevice } from "../unenroll";

export const enrollmentRouter = router({
  /** A one-time token for the kid's new phone; the dashboard renders enrollUrl as a QR code. */
  createToken: kidProcedure.mutation(async ({ ctx }) => {
    const { token, expiresAt } = await createEnrollmentToken(ctx.db, { profileId: ctx.kid.id, parentId: ctx.parent.id });
    const base = (ctx.publicUrl ?? "http://localhost:3000").replace(/\/$/, "");
    return { token, expiresAt, enrollUrl: `${base}/device-api/enroll?token=${encodeURIComponent(token)}` };
  }),

  /**
   * Replacing the kid's phone, first step: the old phone is unenrolled (credential revoked, socket closed,
   * open commands ended); its history stays with the kid. The parent then shows a code for the new phone.
   */
  replacePhone: kidProcedure.input(z.object({ serialNumber: z.string().trim().min(1).max(64) })).mutation(async ({ ctx, input }) => {
    const device = await ctx.db
      .selectFrom("devices")
      .select(["id", "serial_number"])
      .where("serial_number", "=", input.serialNumber)
      .where("profile_id", "=", ctx.kid.id)
      .where("unenrolled_at", "is", null)
      .executeTakeFirst();
    if (!device) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_DEVICE });
    await unenrollDevice(ctx, device.id);
    ctx.log("info", "phone unenrolled", { deviceId: device.id, profileId: ctx.kid.id, by: ctx.parent.id, reason: "replaced" });
    return {
      respones_msg: `${possessive(ctx.kid.name)} old phone (${device.serial_number}) was removed from your account. Its history stays with ${ctx.kid.name}. Now add the new phone.`,
    };
  }),
});
