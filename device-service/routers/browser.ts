import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { calendarDay } from "../../core/days";
import { BROWSER_LOG_MAX_PAGE, BROWSER_LOG_PAGE_SIZE } from "../../core/limits";
import { recordId } from "../../core/values";
import { listWebFilterCategories } from "../../db/queries/web-filter/categories";
import { listVisitedSites } from "../../db/queries/web-filter/visits";
import { kidBlockedEntries, listBrowserLogs, setAddressStatus, toggleRow, unblockAll, unblockSite } from "../browser";
import { possessive } from "../messages";
import { blockedBy, normaliseUrlEntry } from "../policy/urls";
import { applyPolicy } from "../policy/store";
import { deviceProcedure, router } from "../trpc";

export const NO_SUCH_ADDRESS = "We couldn't find this web address in the phone's browser log.";
export const NOT_A_SITE = "Choose a site of the list: a name such as example.com, without a path.";

/** Why the web filter blocked a lookup, for the page: a category (by name), an address of this list, or another reason. */
export type VisitReason = { kind: "category"; id: string; name: string } | { kind: "rule"; host: string } | { kind: "other" };

function visitReason(reason: string | null, names: Map<string, string>): VisitReason | null {
  if (reason === null) return null;
  if (reason.startsWith("category:")) {
    const id = reason.slice("category:".length);
    return { kind: "category", id, name: names.get(id) ?? id };
  }
  if (reason.startsWith("rule:")) return { kind: "rule", host: reason.slice("rule:".length) };
  return { kind: "other" };
}

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

  /**
   * The web filter's visited sites of the phone's kid on a day (issue 54 item 5): each domain with its first and last
   * lookup, count, whether a lookup was blocked and why, and the blocked address that covers it now (`rule`), if any.
   */
  sites: deviceProcedure
    .input(
      z.object({
        currentDate: calendarDay,
        page: z.number().int().min(1).max(BROWSER_LOG_MAX_PAGE).default(1),
      }),
    )
    .query(async ({ ctx, input }) => {
      const [rows, entries, categories] = await Promise.all([
        listVisitedSites(ctx.db, ctx.kid.id, {
          day: input.currentDate,
          limit: BROWSER_LOG_PAGE_SIZE + 1,
          offset: (input.page - 1) * BROWSER_LOG_PAGE_SIZE,
        }),
        kidBlockedEntries(ctx.db, ctx.kid.id),
        listWebFilterCategories(ctx.db),
      ]);
      const names = new Map(categories.map((c) => [c.id, c.name]));
      return {
        list: rows.slice(0, BROWSER_LOG_PAGE_SIZE).map((r) => ({
          domain: r.domain,
          firstAt: r.firstAt,
          lastAt: r.lastAt,
          count: r.count,
          blocked: r.blocked,
          reason: visitReason(r.reason, names),
          rule: blockedBy(entries, r.domain),
        })),
        page: input.page,
        hasNextPage: rows.length > BROWSER_LOG_PAGE_SIZE,
      };
    }),

  /**
   * Block or unblock a visited site in one click: blocking adds the host as a blocked address of this phone (a host
   * blocks its subdomains), as Add does; unblocking lifts every blocked address that covers it on the kid's phones.
   */
  setSite: deviceProcedure.input(z.object({ domain: z.string().max(253), isBlocked: z.boolean() })).mutation(async ({ ctx, input }) => {
    const entry = normaliseUrlEntry(input.domain);
    if (!entry.ok || /[/:?#]/.test(entry.url)) throw new TRPCError({ code: "BAD_REQUEST", message: entry.ok ? NOT_A_SITE : entry.message });
    const host = entry.url;
    const kid = possessive(ctx.kid.name);
    if (input.isBlocked) {
      await setAddressStatus(ctx.db, ctx.device.id, host, true);
      await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
      return { respones_msg: `${host} is blocked on ${kid} phone.` };
    }
    const { lifted, deviceIds } = await unblockSite(ctx.db, ctx.kid.id, host);
    const live = deviceIds.length
      ? await ctx.db.selectFrom("devices").select("id").where("id", "in", deviceIds).where("unenrolled_at", "is", null).execute()
      : [];
    for (const d of live) await applyPolicy(ctx, d.id, ctx.parent.id);
    if (!lifted.length) return { respones_msg: `No blocked address covers ${host}.` };
    const also = lifted.filter((e) => e !== host);
    const more = also.length ? ` (${also.join(", ")} ${also.length === 1 ? "is" : "are"} no longer blocked either)` : "";
    return { respones_msg: `${host} is unblocked on ${kid} phone${more}.` };
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
