import { z } from "zod";
import { ACCESS_LEVELS, DEFAULT_ACCESS_LEVEL, NAME_MAX } from "~/rules/delegation";

/** Forms of the parent profile page (conform + zod); the required-field rule itself is app/rules/delegation.ts. */
export const nameSchema = z.object({
  parentName: z
    .string({ required_error: "Parent name is required." })
    .trim()
    .min(1, "Parent name is required.")
    .max(NAME_MAX, `Parent name must be at most ${NAME_MAX} characters.`),
});

/** Everything optional here: a missing field gets the spec's one message, 'Please fill all required fields.'. */
export const addAccessSchema = z.object({
  username: z.string().max(200).optional(),
  name: z.string().max(200).optional(),
  allowedKids: z.array(z.string().max(64)).max(50).optional(),
  accessLevel: z.enum(ACCESS_LEVELS).default(DEFAULT_ACCESS_LEVEL),
});

export const CONFIRMS = ["revoke", "reject"] as const;
