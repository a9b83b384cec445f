import { z } from "zod";
import { BIRTH_YEAR_MIN } from "~/utils/rules";

/** Edit kid (spec 1 §5): name, birth month 1–12 and birth year 2000..current year, all required. */
export function editKidSchema(currentYear: number) {
  return kidDetailsSchema(currentYear).extend({
    intent: z.literal("edit-kid"),
    profileId: z.string().min(1),
    picture: z.any().optional(),
  });
}

/** Add a kid (a parent without any kid yet): the same rules as editing one. */
export function addKidSchema(currentYear: number) {
  return kidDetailsSchema(currentYear).extend({ intent: z.literal("add-kid") });
}

function kidDetailsSchema(currentYear: number) {
  return z.object({
    kidName: z.string({ required_error: "Please enter the kid's name." }).trim().min(1, "Please enter the kid's name.").max(60, "The name must be 60 characters or fewer."),
    birthMonth: z.coerce
      .number({ required_error: "Please choose the birth month.", invalid_type_error: "Please choose the birth month." })
      .int()
      .min(1, "Please choose the birth month.")
      .max(12, "Please choose the birth month."),
    birthYear: z.coerce
      .number({ required_error: "Please enter the birth year.", invalid_type_error: "Please enter the birth year." })
      .int("Please enter the birth year.")
      .min(BIRTH_YEAR_MIN, `Birth year must be between ${BIRTH_YEAR_MIN} and ${currentYear}.`)
      .max(currentYear, `Birth year must be between ${BIRTH_YEAR_MIN} and ${currentYear}.`),
  });
}
