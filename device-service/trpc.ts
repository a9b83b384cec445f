import { initTRPC, TRPCError } from "@trpc/server";
import type { DeviceServiceContext } from "./context";

const t = initTRPC.context<DeviceServiceContext>().create();

export const router = t.router;
export const publicProcedure = t.procedure;
export const createCallerFactory = t.createCallerFactory;

/** Every parent-facing procedure: the caller must be a signed-in parent. */
export const parentProcedure = t.procedure.use(({ ctx, next }) => {
  if (!ctx.parent) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in again." });
  return next({ ctx: { ...ctx, parent: ctx.parent } });
});
