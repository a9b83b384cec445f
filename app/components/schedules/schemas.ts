import { z } from "zod";
import { hhmm } from "#core/zoned-time";
import {
  clockTime,
  SCHEDULE_PRESETS,
  SCHEDULE_NO_DAY,
  SCHEDULE_NOTHING_BLOCKED,
  SCHEDULE_SAME_TIMES,
  scheduleName,
} from "#core/time-values";
import { recordId } from "#core/values";

/**
 * The /schedules form (issue 21 item 2), built from core/time-values.ts: a name, weekday checkboxes (0 = Monday),
 * start and end as "HH:MM" (end before start crosses midnight), and what it blocks. Messages are the ones the
 * device service gives, so the form and the procedure say the same thing.
 */
export const scheduleFormSchema = z
  .object({
    intent: z.literal("save"),
    id: recordId.optional(),
    name: scheduleName,
    days: z
      .array(z.number({ invalid_type_error: SCHEDULE_NO_DAY }).int().min(0).max(6), { required_error: SCHEDULE_NO_DAY })
      .max(7)
      .min(1, SCHEDULE_NO_DAY),
    start: clockTime,
    end: clockTime,
    blocks: z.enum(["all", "some"], { required_error: SCHEDULE_NOTHING_BLOCKED, invalid_type_error: SCHEDULE_NOTHING_BLOCKED }),
    categories: z.array(z.string().trim().min(1).max(200)).max(500),
    apps: z.array(z.string().trim().min(1).max(200)).max(500),
  })
  .superRefine((s, ctx) => {
    if (s.start === s.end) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["end"], message: SCHEDULE_SAME_TIMES });
    if (s.blocks === "some" && s.categories.length === 0 && s.apps.length === 0)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["blocks"], message: SCHEDULE_NOTHING_BLOCKED });
  });

export type ScheduleForm = z.infer<typeof scheduleFormSchema>;

/** The procedure's shape (core/time-values.ts scheduleFields). */
export function toScheduleFields(v: ScheduleForm) {
  const all = v.blocks === "all";
  return {
    name: v.name,
    days: [...new Set(v.days)].sort(),
    start: v.start,
    end: v.end,
    blocksAll: all,
    categories: all ? [] : v.categories,
    apps: all ? [] : v.apps,
  };
}

export type Preset = keyof typeof SCHEDULE_PRESETS;
export const PRESETS = Object.keys(SCHEDULE_PRESETS) as Preset[];

export interface ScheduleDraft {
  id?: string;
  name: string;
  days: number[];
  start: string;
  end: string;
  blocks: "all" | "some";
  categories: string[];
  apps: string[];
}

export function presetDraft(preset: string | null): ScheduleDraft {
  const p = PRESETS.includes(preset as Preset) ? SCHEDULE_PRESETS[preset as Preset] : null;
  if (!p) return { name: "", days: [], start: "", end: "", blocks: "all", categories: [], apps: [] };
  return { name: p.name, days: [...p.days], start: hhmm(p.start), end: hhmm(p.end), blocks: "all", categories: [], apps: [] };
}
