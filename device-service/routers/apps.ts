import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { minutesStep, packageName as pkg } from "../../core/values";
import { newId, nowIso } from "../../core/ids.server";
import { appUsedToday } from "../../db/queries/usage-today";
import { KIDS_APP_PACKAGE } from "../../core/store";
import { INSTALL_FIRST, enableRefusal } from "../../core/limits";
import type { DeviceServiceContext } from "../context";
import { possessive, waitingFor } from "../messages";
import { applyPolicy } from "../policy/store";
import { commandProcedure, kidProcedure, router } from "../trpc";

export const KIDS_APP_ALWAYS_ON = "The kids app is always on and has no limit.";
export const APP_NOT_FOUND = "We couldn't find this app.";
export const EXPERT_ONLY = "Expert ratings are set by our expert team.";

async function installedApp(ctx: DeviceServiceContext, deviceId: string, packageName: string) {
  if (packageName === KIDS_APP_PACKAGE) throw new TRPCError({ code: "FORBIDDEN", message: KIDS_APP_ALWAYS_ON });
  const app = await ctx.db
    .selectFrom("profile_apps as pa")
    .leftJoin("catalog_apps as c", "c.package_name", "pa.package_name")
    .select(["pa.id", "pa.is_installed", "pa.enable_daily_limit", "pa.daily_limit_minutes", "pa.is_app_disabled", "c.title"])
    .where("pa.device_id", "=", deviceId)
    .where("pa.package_name", "=", packageName)
    .executeTakeFirst();
  if (!app || app.is_installed !== 1) throw new TRPCError({ code: "NOT_FOUND", message: INSTALL_FIRST });
  return { ...app, title: app.title ?? packageName };
}

const stars = z
  .number({ invalid_type_error: "Please choose 0 to 5 stars." })
  .int("Please choose 0 to 5 stars.")
  .min(0, "Please choose 0 to 5 stars.")
  .max(5, "Please choose 0 to 5 stars.");

/** Per-app settings of a kid's phone (spec 2 §2 /application); each change is applied through the policy. */
export const appsRouter = router({
  setLimit: commandProcedure
    .input(z.object({ packageName: pkg, enableDailyLimit: z.boolean(), dailyLimitTime: minutesStep }))
    .mutation(async ({ ctx, input }) => {
      const app = await installedApp(ctx, ctx.device.id, input.packageName);
      const minutes = input.enableDailyLimit ? input.dailyLimitTime : 0;
      await ctx.db
        .updateTable("profile_apps")
        .set({
          enable_daily_limit: input.enableDailyLimit ? 1 : 0,
          daily_limit_minutes: minutes,
          updated_at: nowIso(),
          updated_by: ctx.parent.id,
        })
        .where("id", "=", app.id)
        .execute();
      const applied = await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
      const what =
        input.enableDailyLimit && minutes > 0
          ? `${app.title} has a daily limit of ${minutes} minutes.`
          : `${app.title} has no daily limit.`;
      return { respones_msg: `${what} ${waitingFor(ctx.kid.name, ctx.deviceOnline)}`, policyVersion: applied.version };
    }),

  /** Enable or disable an app by hand. Enabling an app that used up its limit today is refused (spec 2 §5). */
  setEnabled: commandProcedure.input(z.object({ packageName: pkg, enabled: z.boolean() })).mutation(async ({ ctx, input }) => {
    const app = await installedApp(ctx, ctx.device.id, input.packageName);
    if (input.enabled) {
      const refused = enableRefusal({
        enableDailyLimit: app.enable_daily_limit === 1,
        dailyLimitMinutes: app.daily_limit_minutes,
        usedMinutes: await appUsedToday(ctx.db, ctx.device.id, input.packageName),
      });
      if (refused) throw new TRPCError({ code: "BAD_REQUEST", message: refused });
    }
    await ctx.db
      .updateTable("profile_apps")
      .set({
        is_app_disabled: input.enabled ? 0 : 1,
        disabled_type: input.enabled ? null : "Manually",
        updated_at: nowIso(),
        updated_by: ctx.parent.id,
      })
      .where("id", "=", app.id)
      .execute();
    const applied = await applyPolicy(ctx, ctx.device.id, ctx.parent.id);
    const what = input.enabled
      ? `${app.title} is enabled on ${possessive(ctx.kid.name)} phone.`
      : `${app.title} is disabled on ${possessive(ctx.kid.name)} phone.`;
    return { respones_msg: `${what} ${waitingFor(ctx.kid.name, ctx.deviceOnline)}`, policyVersion: applied.version };
  }),

  /**
   * A parent's rating of an app for one of their kids (one per parent, kid and app; a new one replaces it).
   * It marks the app's pending rating shown. Expert ratings are the expert team's: an input carrying one is refused.
   */
  rate: kidProcedure
    .input(
      z.object({
        packageName: pkg,
        isEducational: stars,
        isPositive: stars,
        isSuitableContent: stars,
        isEasyToUnderstand: stars,
        isRecommend: z.boolean(),
        review: z.string().trim().max(1000, "The review must be 1,000 characters or fewer.").optional(),
        expertRating: z.undefined({ invalid_type_error: EXPERT_ONLY }).optional(),
        expertRatingComment: z.undefined({ invalid_type_error: EXPERT_ONLY }).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const [catalog, installed] = await Promise.all([
        ctx.db.selectFrom("catalog_apps").select("title").where("package_name", "=", input.packageName).executeTakeFirst(),
        ctx.db
          .selectFrom("profile_apps")
          .select("id")
          .where("profile_id", "=", ctx.kid.id)
          .where("package_name", "=", input.packageName)
          .executeTakeFirst(),
      ]);
      if (!catalog && !installed) throw new TRPCError({ code: "NOT_FOUND", message: APP_NOT_FOUND });
      const ts = nowIso();
      const values = {
        is_educational: input.isEducational,
        is_positive: input.isPositive,
        is_suitable_content: input.isSuitableContent,
        is_easy_to_understand: input.isEasyToUnderstand,
        is_recommend: input.isRecommend ? 1 : 0,
        review: input.review || null,
        updated_at: ts,
      };
      await ctx.db
        .insertInto("parent_ratings")
        .values({
          id: newId(),
          parent_id: ctx.parent.id,
          profile_id: ctx.kid.id,
          package_name: input.packageName,
          is_easy_to_stop: null,
          created_at: ts,
          ...values,
        })
        .onConflict((oc) => oc.columns(["parent_id", "profile_id", "package_name"]).doUpdateSet(values))
        .execute();
      return { respones_msg: `Thank you for rating ${catalog?.title ?? input.packageName}.` };
    }),
});
