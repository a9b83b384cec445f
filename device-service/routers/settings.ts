import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { nowIso } from "../../db/queries/ids";
import { possessive } from "../messages";
import { applyPolicy } from "../policy/store";
import { deviceProcedure, router } from "../trpc";
import { MULTIPLE_OF_15, multipleOf15 } from "./helpers";

export const settingsRouter = router({
  setGlobalDailyLimit: deviceProcedure.input(z.object({ minutes: z.number() })).mutation(async ({ ctx, input }) => {
    if (!multipleOf15(input.minutes)) throw new TRPCError({ code: "BAD_REQUEST", message: MULTIPLE_OF_15 });
    const ts = nowIso();
    const value = String(input.minutes);
    await ctx.db
      .insertInto("global_settings")
      .values({ device_id: ctx.device.id, key: "GlobalDailyLimit", value, updated_at: ts })
      .onConflict((oc) => oc.columns(["device_id", "key"]).doUpdateSet({ value, updated_at: ts }))
      .execute();
    const applied = await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    const what = input.minutes === 0 ? "The global daily limit is off" : `The global daily limit is ${input.minutes} minutes`;
    return { respones_msg: `${what} on ${possessive(ctx.kid.name)} phone.`, policyVersion: applied.version };
  }),
});
