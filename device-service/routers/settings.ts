import { z } from "zod";
import { minutesStep } from "../../core/values";
import { nowIso } from "../../core/ids.server";
import { possessive } from "../messages";
import { applyPolicy } from "../policy/store";
import { deviceProcedure, router } from "../trpc";

export const settingsRouter = router({
  setGlobalDailyLimit: deviceProcedure.input(z.object({ minutes: minutesStep })).mutation(async ({ ctx, input }) => {
    const ts = nowIso();
    const value = String(input.minutes);
    await ctx.db
      .insertInto("global_settings")
      .values({ device_id: ctx.device.id, key: "GlobalDailyLimit", value, updated_at: ts, updated_by: ctx.parent.id })
      .onConflict((oc) => oc.columns(["device_id", "key"]).doUpdateSet({ value, updated_at: ts, updated_by: ctx.parent.id }))
      .execute();
    const applied = await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    const what = input.minutes === 0 ? "The global daily limit is off" : `The global daily limit is ${input.minutes} minutes`;
    return { respones_msg: `${what} on ${possessive(ctx.kid.name)} phone.`, policyVersion: applied.version };
  }),
});
