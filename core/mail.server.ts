import nodemailer, { type Transporter } from "nodemailer";
import type { Env } from "./env.server";
import type { Logger } from "./log";
import { mailboxAvailable } from "./mailbox";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to the text (report mails); the text part is always sent. */
  html?: string;
  /** Inline images referenced from the HTML as cid:… (report charts). */
  attachments?: { filename: string; content: string | Buffer; contentType: string; cid: string }[];
}

export interface DeliveryDeps {
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "NODE_ENV" | "DEV_MAILBOX">;
  /** Keeps the mail for the dev mailbox when there is no SMTP_URL. */
  keep: (mail: Mail) => Promise<unknown>;
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
 * Sends a mail over SMTP when SMTP_URL is set. Without it, `keep` puts the whole mail in the dev mailbox
 * (/dev/mailbox, development only; callers pass the database's outbox, db/queries/accounts.ts); in production
 * the mail is dropped with a warning. The log only ever names the recipient and subject: a body holds sign-in links, reset links and codes. A failed send is logged and
 * reported as false, never thrown at the visitor.
 */
export async function deliverMail({ env, keep, log }: DeliveryDeps, mail: Mail): Promise<boolean> {
  if (!env.SMTP_URL) {
    if (!mailboxAvailable(env)) {
      log("warn", "mail not sent: SMTP_URL is not set", { to: mail.to, subject: mail.subject });
      return false;
    }
    await keep(mail);
    log("info", "mail kept in the dev mailbox (no SMTP_URL)", { to: mail.to, subject: mail.subject });
    return true;
  }
  try {
    await transport(env.SMTP_URL).sendMail({
      from: env.MAIL_FROM,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      attachments: mail.attachments,
    });
    log("info", "mail sent", { to: mail.to, subject: mail.subject });
    return true;
  } catch (err) {
    log("error", "mail could not be sent", { to: mail.to, subject: mail.subject, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
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
