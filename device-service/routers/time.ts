import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { recordId } from "../../core/values";
import { ruleScope, scheduleFields, SCHEDULES_MAX, SESSION_MESSAGE, timeZone, weekdayMinutes } from "../../core/time-values";
import { createSchedule, deleteSchedule, listSchedules, updateSchedule } from "../../db/queries/time-rules/schedules";
import { setTimeRule } from "../../db/queries/time-rules/rules";
import { setFamilyTimeZone } from "../../db/queries/time-zone";
import { BONUS_MAX, BONUS_MESSAGE, BONUS_STEP, grantBonus } from "../bonus";
import { possessive } from "../messages";
import { applyKidPolicies } from "../policy/store";
import { kidProcedure, parentProcedure, router } from "../trpc";

export const SCHEDULE_NOT_FOUND = "We couldn't find this schedule.";
export const TOO_MANY_SCHEDULES = `A kid can have at most ${SCHEDULES_MAX} schedules.`;
const target = z.string().trim().max(200);
const versions = (m: Map<string, { version: number }>) => Object.fromEntries([...m].map(([id, a]) => [id, a.version]));

/** Time rules (issue 21): schedules, weekday limits, sessions, always-allowed apps, bonus time, the family's zone. */
export const timeRouter = router({
  saveSchedule: kidProcedure.input(z.object({ id: recordId.optional(), schedule: scheduleFields })).mutation(async ({ ctx, input }) => {
    if (input.id) {
      if (!(await updateSchedule(ctx.db, ctx.kid.id, input.id, input.schedule)))
        throw new TRPCError({ code: "NOT_FOUND", message: SCHEDULE_NOT_FOUND });
    } else if ((await listSchedules(ctx.db, ctx.kid.id)).length >= SCHEDULES_MAX) {
      throw new TRPCError({ code: "BAD_REQUEST", message: TOO_MANY_SCHEDULES });
    }
    const id = input.id ?? (await createSchedule(ctx.db, ctx.kid.id, input.schedule));
    const applied = await applyKidPolicies(ctx, ctx.kid.id, ctx.parent.id);
    return {
      id,
      respones_msg: `${input.schedule.name} is saved for ${possessive(ctx.kid.name)} phone.`,
      policyVersions: versions(applied),
    };
  }),

  deleteSchedule: kidProcedure.input(z.object({ id: recordId })).mutation(async ({ ctx, input }) => {
    if (!(await deleteSchedule(ctx.db, ctx.kid.id, input.id))) throw new TRPCError({ code: "NOT_FOUND", message: SCHEDULE_NOT_FOUND });
    const applied = await applyKidPolicies(ctx, ctx.kid.id, ctx.parent.id);
    return { respones_msg: "The schedule is deleted.", policyVersions: versions(applied) };
  }),

  /** Minutes per weekday for the whole phone, a category or an app; null: the same every day again. */
  setWeekdayLimits: kidProcedure
    .input(z.object({ scope: ruleScope, target, minutes: weekdayMinutes.nullable() }))
    .mutation(async ({ ctx, input }) => {
      await setTimeRule(ctx.db, ctx.kid.id, input.scope, input.scope === "phone" ? "" : input.target, { weekdayMinutes: input.minutes });
      return { policyVersions: versions(await applyKidPolicies(ctx, ctx.kid.id, ctx.parent.id)) };
    }),

  setSession: kidProcedure
    .input(
      z.object({
        scope: z.enum(["category", "app"]),
        target: target.min(1),
        minutes: z.number().int().min(0).max(1440),
        breakMinutes: z.number().int().min(0).max(1440),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const off = input.minutes === 0;
      if (!off && (input.minutes % 15 !== 0 || input.breakMinutes < 15 || input.breakMinutes % 15 !== 0))
        throw new TRPCError({ code: "BAD_REQUEST", message: SESSION_MESSAGE });
      await setTimeRule(ctx.db, ctx.kid.id, input.scope, input.target, {
        sessionMinutes: off ? null : input.minutes,
        breakMinutes: off ? null : input.breakMinutes,
      });
      return { policyVersions: versions(await applyKidPolicies(ctx, ctx.kid.id, ctx.parent.id)) };
    }),

  setAlwaysAllowed: kidProcedure.input(z.object({ packageName: target.min(1), allowed: z.boolean() })).mutation(async ({ ctx, input }) => {
    await setTimeRule(ctx.db, ctx.kid.id, "app", input.packageName, { alwaysAllowed: input.allowed });
    return { policyVersions: versions(await applyKidPolicies(ctx, ctx.kid.id, ctx.parent.id)) };
  }),

  grantBonus: kidProcedure.input(z.object({ scope: ruleScope, target, minutes: z.number().int() })).mutation(async ({ ctx, input }) => {
    if (input.minutes < BONUS_STEP || input.minutes > BONUS_MAX || input.minutes % BONUS_STEP !== 0)
      throw new TRPCError({ code: "BAD_REQUEST", message: BONUS_MESSAGE });
    const r = await grantBonus(ctx, {
      profileId: ctx.kid.id,
      scope: input.scope,
      target: input.target,
      minutes: input.minutes,
      actor: ctx.parent.id,
    });
    return { ...r, respones_msg: `${input.minutes} bonus minutes for ${ctx.kid.name} today.` };
  }),

  /** The family's zone: every kid of this parent gets a policy in it. */
  setTimeZone: parentProcedure.input(z.object({ timeZone })).mutation(async ({ ctx, input }) => {
    await setFamilyTimeZone(ctx.db, ctx.parent.id, input.timeZone);
    const kids = await ctx.db.selectFrom("kid_profiles").select("id").where("parent_id", "=", ctx.parent.id).execute();
    for (const k of kids) await applyKidPolicies(ctx, k.id, ctx.parent.id);
    return { respones_msg: `Your time zone is ${input.timeZone}.` };
  }),
});
