/** A report mail: HTML with the two charts inline (PNG, cid attachments) and a plain-text part that keeps every number. */
export interface ReportMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; content: string | Buffer; contentType: string; cid: string }[];
}

/** Sends one mail; true when it went (SMTP accepted it, or the dev mailbox kept it). */
export type ReportMailer = (mail: ReportMail) => Promise<boolean>;
