import { z } from "zod";
import { minutes, minutesStep, recordId } from "../../core/values";
import { approveExtend, approveInstall, approveUninstall, findRequest, rejectRequest, type Answerer } from "../requests";
import { commandProcedure, router } from "../trpc";

/** Extra minutes asked for: whole minutes, at least one, at most a day. */
const extraMinutes = minutes.refine((n) => n > 0, "Please choose how many extra minutes to give.");

/**
 * The parent's answers to the kid's requests (spec 2 §2 /requests, §7 approve and reject). The request must be a
 * Pending one of this kid's phone (another family's id: NOT_FOUND); the work is in device-service/requests.ts.
 */
export const requestsRouter = router({
  /** Install (with the popup's limit; Skip & Install: enableDailyLimit false), uninstall, or extend (extendLimit). */
  approve: commandProcedure
    .input(
      z.object({
        id: recordId,
        extendLimit: extraMinutes.optional(),
        enableDailyLimit: z.boolean().optional(),
        dailyLimitTime: minutesStep.optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const a: Answerer = { parentId: ctx.parent.id, kid: ctx.kid, device: ctx.device };
      const req = await findRequest(ctx, a, input.id);
      switch (req.request_type) {
        case "App Install":
          return approveInstall(ctx, a, req, {
            enabled: input.enableDailyLimit ?? false,
            minutes: input.enableDailyLimit ? (input.dailyLimitTime ?? 0) : 0,
          });
        case "App Uninstall":
          return approveUninstall(ctx, a, req);
        case "Extend Time":
          return approveExtend(ctx, a, req, input.extendLimit ?? req.extended_time);
      }
    }),

  reject: commandProcedure.input(z.object({ id: recordId })).mutation(async ({ ctx, input }) => {
    const a: Answerer = { parentId: ctx.parent.id, kid: ctx.kid, device: ctx.device };
    return rejectRequest(ctx, a, await findRequest(ctx, a, input.id));
  }),
});
