import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import { canAccessKid, findAccessibleDevice } from "../db/queries/access";
import type { DeviceServiceContext } from "./context";

const t = initTRPC.context<DeviceServiceContext>().create();

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

export const NOT_YOUR_KID = "We couldn't find this kid in your account.";
export const NOT_YOUR_DEVICE = "We couldn't find this phone in your account.";

/** Every parent-facing procedure: the caller must be a signed-in parent. */
export const parentProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.parent) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in again." });
  return next({ ctx: { ...ctx, parent: ctx.parent } });
});

const id = z.string().trim().min(1).max(64);

/**
 * Kid-scoped procedures: the kid must be the parent's own or delegated to them and accepted
 * (db/queries/access.ts). Anything else is NOT_FOUND, so another family's ids reveal nothing.
 */
export const kidProcedure = parentProcedure.input(z.object({ profileId: id })).use(async ({ ctx, input, next }) => {
  const kid = await ctx.db.selectFrom("kid_profiles").select(["id", "name", "parent_id", "sleep_mode"]).where("id", "=", input.profileId).executeTakeFirst();
  if (!kid || !(await canAccessKid(ctx.db, ctx.parent, kid.id))) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_KID });
  return next({ ctx: { ...ctx, kid } });
});

/** Device-scoped procedures, looked up by serial number under the same rule. */
export const deviceProcedure = parentProcedure.input(z.object({ serialNumber: id })).use(async ({ ctx, input, next }) => {
  const device = await findAccessibleDevice(ctx.db, ctx.parent, input.serialNumber);
  if (!device) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_DEVICE });
  const kid = await ctx.db.selectFrom("kid_profiles").select(["id", "name"]).where("id", "=", device.profile_id).executeTakeFirstOrThrow();
  return next({ ctx: { ...ctx, device, kid } });
});
