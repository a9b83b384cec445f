import type { DB } from "#db/index";
import { addToOutbox } from "#db/queries/accounts";
import type { Env } from "#core/env.server";
import type { Logger } from "#core/log";
import { deliverMail, type Mail } from "#core/mail.server";

interface MailDeps {
  env: Pick<Env, "SMTP_URL" | "MAIL_FROM" | "NODE_ENV" | "DEV_MAILBOX">;
  db: DB;
  log: Logger;
}

/** Sends a mail (core/mail.server.ts); without SMTP_URL the dev mailbox keeps it in the database's outbox. */
export function sendMail({ env, db, log }: MailDeps, mail: Mail): Promise<boolean> {
  return deliverMail({ env, log, keep: (m) => addToOutbox(db, m) }, mail);
}
