import { z } from "zod";
import { MINUTES_STEP, MULTIPLE_OF_15_MESSAGE } from "./values";
import { isTimeZone, parseHhmm } from "./zoned-time";

/**
 * Schemas for time rules (issue 21), shared by the /schedules form, the limit forms and the device service's
 * procedures; messages are written for people. Imports nothing from app/, db/, device-service/ or jobs/.
 */

export const SCHEDULE_NAME_MAX = 40;
export const SCHEDULE_NAME_REQUIRED = "Please give the schedule a name.";
export const SCHEDULE_NAME_TOO_LONG = `The name must be ${SCHEDULE_NAME_MAX} characters or fewer.`;
export const SCHEDULE_NO_DAY = "Please choose at least one day.";
export const SCHEDULE_SAME_TIMES = "The end time must differ from the start time.";
export const SCHEDULE_TIME_MESSAGE = "Please enter a time such as 21:00.";
export const SCHEDULE_NOTHING_BLOCKED = "Please choose the categories or apps this schedule blocks, or block the whole phone.";
export const SCHEDULES_MAX = 20;
export const TIME_ZONE_MESSAGE = "Please choose a time zone from the list.";
export const SESSION_MESSAGE = "Please choose minutes in a row and a break, both in steps of 15 minutes.";
export const SESSION_MINUTES_MESSAGE = "Minutes in a row must be 15 or more, in steps of 15 (at most 1440).";
export const SESSION_BREAK_MESSAGE = "The break must be 15 minutes or more, in steps of 15 (at most 1440).";

export const scheduleName = z
  .string({ required_error: SCHEDULE_NAME_REQUIRED, invalid_type_error: SCHEDULE_NAME_REQUIRED })
  .trim()
  .min(1, SCHEDULE_NAME_REQUIRED)
  .max(SCHEDULE_NAME_MAX, SCHEDULE_NAME_TOO_LONG);

/** "HH:MM" → minutes since midnight. */
export const clockTime = z
  .string({ required_error: SCHEDULE_TIME_MESSAGE, invalid_type_error: SCHEDULE_TIME_MESSAGE })
  .transform((s, ctx) => {
    const m = parseHhmm(s);
    if (m === null) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: SCHEDULE_TIME_MESSAGE });
      return z.NEVER;
    }
    return m;
  });

const weekday = z.number().int().min(0).max(6);
const ids = z.array(z.string().trim().min(1).max(200)).max(500);

/** A schedule as the procedures take it: start and end in minutes since midnight. */
export const scheduleFields = z
  .object({
    name: scheduleName,
    days: z.array(weekday, { invalid_type_error: SCHEDULE_NO_DAY }).max(7).min(1, SCHEDULE_NO_DAY),
    start: z.number().int().min(0).max(1439),
    end: z.number().int().min(0).max(1439),
    blocksAll: z.boolean(),
    categories: ids,
    apps: ids,
  })
  .superRefine((s, ctx) => {
    if (s.start === s.end) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["end"], message: SCHEDULE_SAME_TIMES });
    if (!s.blocksAll && s.categories.length === 0 && s.apps.length === 0)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["blocks"], message: SCHEDULE_NOTHING_BLOCKED });
  });

/** Ready-made schedules offered by Add Schedule. */
export const SCHEDULE_PRESETS = {
  bedtime: { name: "Bedtime", days: [0, 1, 2, 3, 4, 5, 6], start: 21 * 60, end: 7 * 60 },
  school: { name: "School time", days: [0, 1, 2, 3, 4], start: 8 * 60 + 30, end: 15 * 60 },
} as const;

/** Seven minute values, Monday first, each a multiple of 15 (0 = no limit that day). */
export const weekdayMinutes = z
  .array(
    z
      .number()
      .int()
      .min(0)
      .max(1440)
      .refine((n) => n % MINUTES_STEP === 0, MULTIPLE_OF_15_MESSAGE),
  )
  .length(7);

export const timeZone = z.string({ invalid_type_error: TIME_ZONE_MESSAGE }).refine(isTimeZone, TIME_ZONE_MESSAGE);

export const ruleScope = z.enum(["phone", "category", "app"]);
