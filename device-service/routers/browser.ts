import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { calendarDay } from "../../core/days";
import { recordId } from "../../core/values";
import { listBrowserLogs, setAddressStatus, toggleRow, unblockAll } from "../browser";
import { possessive } from "../messages";
import { normaliseUrlEntry } from "../policy/urls";
import { applyPolicy } from "../policy/store";
import { deviceProcedure, router } from "../trpc";

export const NO_SUCH_ADDRESS = "We couldn't find this web address in the phone's browser log.";

/** Spec 2 /browser-logs: list, create, update status, unblock all. Every change re-applies the policy (outbox). */
export const browserRouter = router({
  list: deviceProcedure
    .input(
      z.object({
        currentDate: calendarDay,
        urlText: z.string().max(200).optional(),
        filterByStatus: z.enum(["block", "unblock"]).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const list = await listBrowserLogs(ctx.db, ctx.device.id, {
        day: input.currentDate,
        urlText: input.urlText,
        status: input.filterByStatus,
      });
      return { list };
    }),

  create: deviceProcedure.input(z.object({ url: z.string().max(4096), isBlocked: z.boolean() })).mutation(async ({ ctx, input }) => {
    const entry = normaliseUrlEntry(input.url);
    if (!entry.ok) throw new TRPCError({ code: "BAD_REQUEST", message: entry.message });
    await setAddressStatus(ctx.db, ctx.device.id, entry.url, input.isBlocked);
    await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    return { respones_msg: `${entry.url} is ${input.isBlocked ? "blocked" : "unblocked"} on ${possessive(ctx.kid.name)} phone.` };
  }),

  updateStatus: deviceProcedure.input(z.object({ id: recordId, isBlocked: z.boolean() })).mutation(async ({ ctx, input }) => {
    const r = await toggleRow(ctx.db, ctx.device.id, input.id, input.isBlocked);
    if (!r) throw new TRPCError({ code: "NOT_FOUND", message: NO_SUCH_ADDRESS });
    await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    const also = r.lifted.filter((e) => e !== r.url);
    const more = also.length ? ` (${also.join(", ")} ${also.length === 1 ? "is" : "are"} no longer blocked either)` : "";
    return { respones_msg: `${r.url} is ${input.isBlocked ? "blocked" : "unblocked"} on ${possessive(ctx.kid.name)} phone${more}.` };
  }),

  unblockAll: deviceProcedure.mutation(async ({ ctx }) => {
    await unblockAll(ctx.db, ctx.device.id);
    await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    return { respones_msg: `Every web address is unblocked on ${possessive(ctx.kid.name)} phone.` };
  }),
});
