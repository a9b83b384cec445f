import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { calendarDay } from "../../core/days";
import { BROWSER_LOG_MAX_PAGE, BROWSER_LOG_PAGE_SIZE } from "../../core/limits";
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
        /** From 1; BROWSER_LOG_PAGE_SIZE addresses a page (core/limits.ts). */
        page: z.number().int().min(1).max(BROWSER_LOG_MAX_PAGE).default(1),
      }),
    )
    .query(async ({ ctx, input }) => {
      const all = await listBrowserLogs(ctx.db, ctx.device.id, {
        day: input.currentDate,
        urlText: input.urlText,
        status: input.filterByStatus,
      });
      const from = (input.page - 1) * BROWSER_LOG_PAGE_SIZE;
      return {
        list: all.slice(from, from + BROWSER_LOG_PAGE_SIZE),
        page: input.page,
        hasNextPage: all.length > from + BROWSER_LOG_PAGE_SIZE,
        /** Addresses on every page (with the search and filter). */
        total: all.length,
      };
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
