import { z } from "zod";
import { WEBHOOK_EVENT_NAMES } from "#core/webhooks";

/** The add form of /webhooks: the address and at least one event. Messages are the page's own. */
export const addEndpointSchema = z.object({
  url: z
    .string({ required_error: "Please enter the endpoint's address." })
    .trim()
    .min(1, "Please enter the endpoint's address.")
    .max(2000, "The address is too long (2,000 characters at most).")
    .refine(
      (v) => {
        try {
          const u = new URL(v);
          return (u.protocol === "https:" || u.protocol === "http:") && !!u.hostname;
        } catch {
          return false;
        }
      },
      { message: "Please enter a full address starting with https:// (or http://)." },
    ),
  events: z
    .array(z.enum(WEBHOOK_EVENT_NAMES, { errorMap: () => ({ message: "Please choose events from the list." }) }), {
      required_error: "Please choose at least one event.",
    })
    .min(1, "Please choose at least one event."),
});
