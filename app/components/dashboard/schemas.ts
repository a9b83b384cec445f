import { z } from "zod";
import { birthMonth, birthYear, kidName } from "#core/values";
import { pictureSizeError } from "~/rules/picture";

/**
 * Edit kid (spec 1 §5): name, birth month 1–12 and birth year 2000..current year, all required; a picture of at
 * most 20 MB (issue 52: the browser checks what it will send, after scaling it down; the action checks the same
 * rule on what arrived, whose picture field it reads itself and re-encodes).
 */
export function editKidSchema(currentYear: number) {
  return kidDetailsSchema(currentYear).extend({
    intent: z.literal("edit-kid"),
    profileId: z.string().min(1),
    picture: z
      .any()
      .optional()
      .superRefine((v, ctx) => {
        const error = isFile(v) ? pictureSizeError(v.size) : null;
        if (error) ctx.addIssue({ code: z.ZodIssueCode.custom, message: error });
      }),
  });
}

const isFile = (v: unknown): v is File => typeof File !== "undefined" && v instanceof File;

/** Add a kid (a parent without any kid yet): the same rules as editing one. */
export function addKidSchema(currentYear: number) {
  return kidDetailsSchema(currentYear).extend({ intent: z.literal("add-kid") });
}

/** The same value schemas the device service checks (core/values.ts); form fields arrive as text. */
function kidDetailsSchema(currentYear: number) {
  return z.object({
    kidName,
    birthMonth: z.preprocess(wholeNumber, birthMonth),
    birthYear: z.preprocess(wholeNumber, birthYear(currentYear)),
  });
}

/** Form text to a number: plain digits only ("12abc" stays text and is refused); blank is missing. */
function wholeNumber(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (t === "") return undefined;
  return /^\d{1,6}$/.test(t) ? Number(t) : t;
}
