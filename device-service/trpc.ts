import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import { recordId, serialNumber } from "../core/values";
import { findAccessibleDevice, findAccessibleKid } from "../db/queries/access";
import { assertCommandBudget, commandWindowStart } from "./commands/limits";
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from "../db/unavailable";
import type { DeviceServiceContext, ParentIdentity } from "./context";
import { publicMessage } from "./errors";
import { UNENROLLED_DEVICE } from "./unenroll";

const t = initTRPC.context<DeviceServiceContext>().create({
  // Over HTTP every error carries plain words (validation in the field's terms, never zod's JSON or a stack).
  errorFormatter: ({ shape, error }) => ({
    ...shape,
    message: publicMessage(error),
    data: { code: shape.data.code, httpStatus: shape.data.httpStatus, path: shape.data.path },
  }),
});

export const router = t.router;

/** Every procedure: an unreachable database answers SERVICE_UNAVAILABLE (HTTP 503) with a plain message. */
export const publicProcedure = t.procedure.use(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDatabaseUnavailable(result.error)) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: DATABASE_UNAVAILABLE_MESSAGE, cause: result.error });
  }
  return result;
});
export const createCallerFactory = t.createCallerFactory;

export const NOT_YOUR_KID = "We couldn't find this kid in your account.";
export const NOT_YOUR_DEVICE = "We couldn't find this phone in your account.";

/** Every parent-facing procedure: the caller must be a signed-in parent. */
export const parentProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.parent) throw new TRPCError({ code: "UNAUTHORIZED", message: "Please sign in again." });
  return next({ ctx: { ...ctx, parent: ctx.parent } });
});

/**
 * Kid-scoped procedures: the kid must be the parent's own or delegated to them and accepted
 * (db/queries/access.ts). Anything else is NOT_FOUND, so another family's ids reveal nothing.
 */
export const kidProcedure = parentProcedure.input(z.object({ profileId: recordId })).use(async ({ ctx, input, next }) => {
  const kid = await findAccessibleKid(ctx.db, ctx.parent, input.profileId);
  if (!kid) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_KID });
  return next({ ctx: { ...ctx, kid } });
});

/**
 * The phone named by serial number, its kid, the access check, whether it is online (read before anything is
 * stored) and, for commands, the parent's count in the budget's window: one statement.
 */
async function deviceContext(
  ctx: DeviceServiceContext & { parent: ParentIdentity },
  serial: string,
  o: { commandsIssuedSince?: string; profileId?: string } = {},
) {
  const found = await findAccessibleDevice(ctx.db, ctx.parent, serial, o);
  if (!found) throw new TRPCError({ code: "NOT_FOUND", message: NOT_YOUR_DEVICE });
  if (found.device.unenrolled_at) throw new TRPCError({ code: "PRECONDITION_FAILED", message: UNENROLLED_DEVICE });
  return found;
}

/** Device-scoped procedures, looked up by serial number under the same rule. */
export const deviceProcedure = parentProcedure.input(z.object({ serialNumber })).use(async ({ ctx, input, next }) => {
  const { device, kid, online } = await deviceContext(ctx, input.serialNumber);
  return next({ ctx: { ...ctx, device, kid, deviceOnline: online } });
});

/**
 * Device procedures that send the phone a command on the parent's say-so: at most 30 a minute per parent. A caller
 * whose page names the kid too passes `profileId`: a phone that is not that kid's is NOT_FOUND, like another family's.
 */
export const commandProcedure = parentProcedure
  .input(z.object({ serialNumber, profileId: recordId.optional() }))
  .use(async ({ ctx, input, next }) => {
    const { device, kid, online, commandsIssued } = await deviceContext(ctx, input.serialNumber, {
      commandsIssuedSince: commandWindowStart(),
      profileId: input.profileId,
    });
    assertCommandBudget(commandsIssued, kid.name);
    return next({ ctx: { ...ctx, device, kid, deviceOnline: online } });
  });
