import { z } from "zod";
import { checkLimit, type LimitKind } from "~/rules/apps";

/**
 * Save of an app's or a category's daily limit (spec 2 §5): one schema for the browser's check (conform, before
 * anything is sent) and the action's, so a typo gets the same message with JavaScript on or off and never saves
 * "no limit" or 24 hours. The rule itself is `checkLimit`; fields arrive as text (conform: blank is undefined).
 */
export function limitSchema(kind: LimitKind) {
  return z
    .object({
      enableDailyLimit: z.string().optional(),
      minutes: z.string().optional(),
    })
    .transform((v, ctx) => {
      const enabled = v.enableDailyLimit === "on";
      const checked = checkLimit(kind, enabled, v.minutes ?? "");
      if (!checked.ok) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["minutes"], message: checked.message });
        return z.NEVER;
      }
      return { enabled, minutes: checked.minutes };
    });
}
