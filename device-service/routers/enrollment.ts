import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { recordId } from "../../core/values";
import { addParentNotification } from "../../db/queries/parent-profile";
import { removePhonesOfEndedAccess, type RemovedPhone } from "../delegate-phones";
import { createEnrollmentToken } from "../enrollment";
import { possessive } from "../messages";
import { kidProcedure, parentProcedure, router, NOT_YOUR_DEVICE } from "../trpc";
import { unenrollDevice } from "../unenroll";

export const ACCESS_NOT_FOUND = "We couldn't find this access in your account.";

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
    const { filterIdRenewed } = await unenrollDevice(ctx, device.id);
    ctx.log("info", "phone unenrolled", { deviceId: device.id, profileId: ctx.kid.id, by: ctx.parent.id, reason: "replaced" });
    if (ctx.kid.parent_id !== ctx.parent.id) {
      // A delegate removed the owner's kid's phone: the owner is told who did it (issue 52).
      const people = await ctx.db
        .selectFrom("parents")
        .select(["id", "name", "email"])
        .where("id", "in", [ctx.kid.parent_id, ctx.parent.id])
        .execute();
      const owner = people.find((p) => p.id === ctx.kid.parent_id);
      const delegate = people.find((p) => p.id === ctx.parent.id);
      if (owner)
        await addParentNotification(
          ctx.db,
          owner.email,
          `${delegate?.name || ctx.parent.email} replaced ${possessive(ctx.kid.name)} phone: the old phone (${device.serial_number}) was removed from your account.`,
          `/kids-device?profileId=${encodeURIComponent(ctx.kid.id)}`,
        );
    }
    const removed = `${possessive(ctx.kid.name)} old phone (${device.serial_number}) was removed from your account. Its history stays with ${ctx.kid.name}. Now add the new phone.`;
    if (!filterIdRenewed) return { respones_msg: removed };
    // The old phone's Private DNS hostname is refused from now on (decision 015): the kid's phones get the new one in
    // their policy (a kids app that cannot set Private DNS itself needs it set by hand).
    const others = await ctx.db
      .selectFrom("devices")
      .select("id")
      .where("profile_id", "=", ctx.kid.id)
      .where("unenrolled_at", "is", null)
      .executeTakeFirst();
    const which = others
      ? `the new phone and ${possessive(ctx.kid.name)} other phones get it with their policy`
      : "the new phone gets it with its policy";
    return {
      respones_msg: `${removed} ${possessive(ctx.kid.name)} web filter has a new Private DNS hostname: ${which}, or set it by hand (Web Filter page).`,
    };
  }),

  /**
   * After the owner revoked a delegate's access (db/queries/delegations.ts `revokeDelegation`): the phones that delegate
   * enrolled for the delegation's kids are removed from them (device-service/delegate-phones.ts), and the owner learns
   * which. The delegation's owner only (anyone else: not found); only once it is revoked. Idempotent, so the owner's
   * page may ask again after a failure.
   */
  removeRevokedDelegatePhones: parentProcedure
    .input(z.object({ delegationId: recordId }))
    .mutation(async ({ ctx, input }): Promise<{ phones: RemovedPhone[] }> => {
      const d = await ctx.db
        .selectFrom("delegations")
        .select(["id", "owner_parent_id", "delegate_email", "status", "responded_by"])
        .where("id", "=", input.delegationId)
        .executeTakeFirst();
      if (!d || d.owner_parent_id !== ctx.parent.id) throw new TRPCError({ code: "NOT_FOUND", message: ACCESS_NOT_FOUND });
      if (d.status !== "Revoked") throw new TRPCError({ code: "PRECONDITION_FAILED", message: "Please revoke this access first." });
      const kids = (await ctx.db.selectFrom("delegation_kids").select("profile_id").where("delegation_id", "=", d.id).execute()).map(
        (k) => k.profile_id,
      );
      // The account that accepted, and the account at the address today (the same one unless an e-mail changed).
      const delegates = await ctx.db
        .selectFrom("parents")
        .select(["id", "email"])
        .where((eb) => eb.or([eb("email", "=", d.delegate_email), ...(d.responded_by ? [eb("id", "=", d.responded_by)] : [])]))
        .execute();
      const phones: RemovedPhone[] = [];
      for (const delegate of delegates) phones.push(...(await removePhonesOfEndedAccess(ctx, delegate, kids)));
      return { phones };
    }),
});
