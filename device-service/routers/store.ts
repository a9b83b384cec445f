import { z } from "zod";
import { minutesStep, packageName as pkg, recordId } from "../../core/values";
import { installFromStore, uninstallFromStore } from "../store";
import { commandProcedure, router } from "../trpc";

/** The Play Store (spec 2 §2 /play-store): install with the daily limit chosen in the popup, and uninstall. */
export const storeRouter = router({
  /** Save and Install (limit on, above 0) or Skip & Install (limit off, 0 minutes). */
  install: commandProcedure
    .input(z.object({ packageName: pkg, enableDailyLimit: z.boolean(), dailyLimitTime: minutesStep, requestId: recordId.optional() }))
    .mutation(({ ctx, input }) => installFromStore(ctx, { device: ctx.device, kid: ctx.kid, parentId: ctx.parent.id }, input)),

  uninstall: commandProcedure
    .input(z.object({ packageName: pkg, requestId: recordId.optional() }))
    .mutation(({ ctx, input }) =>
      uninstallFromStore(ctx, { device: ctx.device, kid: ctx.kid, parentId: ctx.parent.id }, input.packageName, input.requestId ?? null),
    ),
});
