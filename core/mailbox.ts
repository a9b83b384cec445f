/** The dev mailbox (/dev/mailbox): development only, or production with DEV_MAILBOX=true (never a real deployment). */
export function mailboxAvailable(e: { NODE_ENV: string; DEV_MAILBOX: boolean }): boolean {
  return e.NODE_ENV !== "production" || e.DEV_MAILBOX;
}
