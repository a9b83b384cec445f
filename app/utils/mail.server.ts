import nodemailer, { type Transporter } from "nodemailer";
import type { DB } from "../../db/index";
import { addToOutbox } from "../../db/queries/accounts";
import type { Env } from "./env.server";
import type { Logger } from "./log.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

interface MailDeps {
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM">;
  db: DB;
  log: Logger;
}

const transports = new Map<string, Transporter>();
function transport(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

/**
 * Sends a mail over SMTP when SMTP_URL is set; otherwise keeps it in the database outbox, prints it in the log
 * and shows it at /dev/mailbox. A failed send is logged and reported as false, never thrown at the visitor.
 */
export async function sendMail({ env, db, log }: MailDeps, mail: Mail): Promise<boolean> {
  if (!env.SMTP_URL) {
    await addToOutbox(db, mail);
    log("info", "mail kept in outbox (no SMTP_URL)", { to: mail.to, subject: mail.subject, text: mail.text });
    return true;
  }
  try {
    await transport(env.SMTP_URL).sendMail({ from: env.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text });
    log("info", "mail sent", { to: mail.to, subject: mail.subject });
    return true;
  } catch (err) {
    log("error", "mail could not be sent", { to: mail.to, subject: mail.subject, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/** The absolute origin for links in mails: PUBLIC_URL when set, else the request's own origin. */
export function appOrigin(request: Request, env: Pick<Env, "PUBLIC_URL">): string {
  return env.PUBLIC_URL ? new URL(env.PUBLIC_URL).origin : new URL(request.url).origin;
}

export const mails = {
  verifyEmail: (to: string, name: string, url: string): Mail => ({
    to,
    subject: "Verify your email address",
    text: `Hello ${name},\n\nPlease confirm your email address for Kids Portal by opening this link:\n\n${url}\n\nThe link works once and expires in 24 hours. If you did not sign up, ignore this mail.\n`,
  }),
  resetPassword: (to: string, name: string, url: string): Mail => ({
    to,
    subject: "Reset your password",
    text: `Hello ${name},\n\nSomeone asked to reset the password of your Kids Portal account. To choose a new password, open:\n\n${url}\n\nThe link works once and expires in 1 hour. If it was not you, ignore this mail; your password stays the same.\n`,
  }),
  setPassword: (to: string, name: string, url: string): Mail => ({
    to,
    subject: "Set your password",
    text: `Hello ${name},\n\nTo set a password for your Kids Portal account, open:\n\n${url}\n\nThe link works once and expires in 1 hour.\n`,
  }),
  otp: (to: string, name: string, code: string): Mail => ({
    to,
    subject: "Your sign-in code",
    text: `Hello ${name},\n\nYour Kids Portal sign-in code is: ${code}\n\nIt expires in 10 minutes and works once. If you did not try to sign in, change your password.\n`,
  }),
};
