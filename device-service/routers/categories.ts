import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { minutesStep } from "../../core/values";
import { newId, nowIso } from "../../core/ids.server";
import { categoryUsedToday } from "../../db/queries/usage-today";
import { enableRefusal } from "../../core/limits";
import { categorySaved, waitingFor } from "../messages";
import { applyPolicy } from "../policy/store";
import { commandProcedure, router } from "../trpc";

export const CATEGORY_NOT_FOUND = "We couldn't find this category.";
const categoryId = z.string({ invalid_type_error: CATEGORY_NOT_FOUND }).trim().min(1, CATEGORY_NOT_FOUND).max(64, CATEGORY_NOT_FOUND);

/** A kid's category limits (spec 2 §2 /category), applied to the phone through the policy. */
export const categoriesRouter = router({
  update: commandProcedure
    .input(z.object({ category: categoryId, enableDailyLimit: z.boolean(), dailyLimitTime: minutesStep, isCategoryEnabled: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const known =
        input.category === "Others"
          ? { name: "Others" }
          : await ctx.db.selectFrom("store_categories").select("name").where("id", "=", input.category).executeTakeFirst();
      if (!known) throw new TRPCError({ code: "NOT_FOUND", message: CATEGORY_NOT_FOUND });
      const current = await ctx.db
        .selectFrom("category_limits")
        .select(["is_category_enabled", "enable_daily_limit", "daily_limit_minutes"])
        .where("profile_id", "=", ctx.kid.id)
        .where("category", "=", input.category)
        .executeTakeFirst();
      const wasEnabled = current ? current.is_category_enabled === 1 : true;
      const before = { enabled: wasEnabled, minutes: current?.enable_daily_limit === 1 ? Number(current.daily_limit_minutes) : 0 };
      const minutes = input.enableDailyLimit ? input.dailyLimitTime : 0;
      if (input.isCategoryEnabled && !wasEnabled) {
        const refused = enableRefusal({
          enableDailyLimit: input.enableDailyLimit,
          dailyLimitMinutes: minutes,
          usedMinutes: await categoryUsedToday(ctx.db, ctx.device.id, input.category),
        });
        if (refused) throw new TRPCError({ code: "BAD_REQUEST", message: refused });
      }
      const ts = nowIso();
      const values = {
        enable_daily_limit: input.enableDailyLimit ? 1 : 0,
        daily_limit_minutes: minutes,
        is_category_enabled: input.isCategoryEnabled ? 1 : 0,
        updated_at: ts,
        updated_by: ctx.parent.id,
      };
      await ctx.db
        .insertInto("category_limits")
        .values({ id: newId(), profile_id: ctx.kid.id, category: input.category, ...values })
        .onConflict((oc) => oc.columns(["profile_id", "category"]).doUpdateSet(values))
        .execute();
      // The limit is the kid's: every phone of theirs gets it.
      const devices = await ctx.db
        .selectFrom("devices")
        .select("id")
        .where("profile_id", "=", ctx.kid.id)
        .where("unenrolled_at", "is", null)
        .execute();
      let version = 0;
      for (const d of devices) {
        const applied = await applyPolicy(ctx, d.id, ctx.parent.id);
        if (d.id === ctx.device.id) version = applied.version;
      }
      const said = categorySaved(known.name, ctx.kid.name, before, { enabled: input.isCategoryEnabled, minutes });
      return {
        respones_msg: `${said} ${waitingFor(ctx.kid.name, ctx.deviceOnline)}`,
        policyVersion: version,
      };
    }),
});
