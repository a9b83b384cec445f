import { z } from "zod";
import { hitCounter } from "#db/queries/accounts";
import { findParentByEmail } from "#db/queries/parents";
import { publicOrigin } from "#core/env.server";
import { mails } from "#core/mail.server";
import type { AppServices } from "~/load-context";
import { linkUrl, newLink } from "~/utils/links.server";
import { sendMail } from "~/utils/mail.server";

/** The forgotten-password request (the /forget-password page and POST /api/v1/users/send-forget-password-link). */
export const ForgotSchema = z.object({
  email: z.string({ required_error: "Email is required." }).trim().email("Please enter a valid email address.").max(254),
});

/** The one answer, whether or not the email belongs to an account (no account enumeration). */
export const FORGOT_SENT_MESSAGE =
  "If this email is registered with us, we've sent a link to reset your password. Please check your inbox.";

/** At most this many reset mails per address per hour, so nobody can flood a parent's inbox. */
const MAILS_PER_ADDRESS_PER_HOUR = 5;

/**
 * Mails the reset link to the account of this email, if there is one and it has not had its hourly share; a parent
 * without a password (signed up through Google or Apple) is offered to set one. Callers check the per-address limit
 * (allowIp "forgot") first, and answer FORGOT_SENT_MESSAGE whatever happened.
 */
export async function sendPasswordLink(services: AppServices, email: string): Promise<void> {
  const { db, env, log } = services;
  const parent = await findParentByEmail(db, email);
  if (!parent || (await hitCounter(db, `forgot-mail:${parent.id}`, 3_600_000)) > MAILS_PER_ADDRESS_PER_HOUR) return;
  const purpose = parent.password_hash ? "reset-password" : "set-password";
  const link = newLink(env.SESSION_SECRET, { parentId: parent.id, purpose, passwordHash: parent.password_hash });
  const url = linkUrl(publicOrigin(env), purpose === "reset-password" ? "/reset-password" : "/password/set", link);
  const mail =
    purpose === "reset-password" ? mails.resetPassword(parent.email, parent.name, url) : mails.setPassword(parent.email, parent.name, url);
  // Not awaited: the answer must take the same time whether or not the account exists.
  void sendMail(services, mail).catch((err) => log("error", "reset mail failed", { error: String(err) }));
}
