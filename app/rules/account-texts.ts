/**
 * What the sign-in and forgotten-password pages show in the browser too (so not in a `.server` module, which the
 * browser bundle leaves empty), shared with their server code and API v1.
 */
import { z } from "zod";

/** The forgotten-password request (the /forget-password page and POST /api/v1/users/send-forget-password-link). */
export const ForgotSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address.").max(254),
});

/** The one answer, whether or not the email belongs to an account (no account enumeration). */
export const FORGOT_SENT_MESSAGE =
  "If this email is registered with us, we've sent a link to reset your password. Please check your inbox.";

/** Spec 1 §8, word for word; 'click here' links to the shop. */
export const INVALID_EMAIL_BANNER =
  "We couldn't find this email in our system. If you haven't purchased a device yet, click here to buy one from our website.";
