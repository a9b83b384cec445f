import type { Generated } from "kysely";

// Accounts (migration 2026-11-21T02-accounts) and parent notifications (2026-11-23T01-delegation); part of `Database` in schema.ts.

export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  created_at: string;
}

export interface UsedLinksTable {
  id: string;
  purpose: string;
  used_at: string;
  expires_at: string;
}

export interface OtpCodesTable {
  id: string;
  parent_id: string;
  code_hash: string;
  attempts: Generated<number>;
  created_at: string;
  expires_at: string;
  consumed_at: string | null;
}

export interface SigninTokensTable {
  id: string;
  parent_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

// ---- delegation (migration 2026-11-23T01-delegation) ----

/** A message in the portal for a parent (by email, so an invitee without an account yet gets theirs on sign-up). */
export interface ParentNotificationsTable {
  id: string;
  recipient_email: string;
  message: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
}

export interface RateLimitsTable {
  key: string;
  window_start: string;
  hits: Generated<number>;
}

export interface AccountsDatabase {
  mail_outbox: MailOutboxTable;
  used_links: UsedLinksTable;
  otp_codes: OtpCodesTable;
  signin_tokens: SigninTokensTable;
  rate_limits: RateLimitsTable;
  parent_notifications: ParentNotificationsTable;
}
