import { hitCounter } from "#db/queries/accounts";
import { findParentByEmail } from "#db/queries/parents";
import { publicOrigin } from "#core/env.server";
import { mails } from "#core/mail.server";
import type { AppServices } from "~/load-context";
import { linkUrl, newLink } from "~/utils/links.server";
import { sendMail } from "~/utils/mail.server";

export { ForgotSchema, FORGOT_SENT_MESSAGE } from "~/rules/account-texts";

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
