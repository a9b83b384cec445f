import type { Selectable } from "kysely";

// ---- reports (migration 2026-11-23T04-reports); part of `Database` in schema.ts ----

export type ReportMailState = "pending" | "sending" | "sent" | "none";

/** One kid's report of one closed week or month; written once by the report job, never changed but for its mail state. */
export interface ReportsTable {
  id: string;
  profile_id: string;
  kind: "Weekly" | "Monthly";
  /** local YYYY-MM-DD, inclusive */
  period_start: string;
  /** local YYYY-MM-DD, exclusive */
  period_end: string;
  time_zone: string;
  title: string;
  total_minutes: number;
  previous_minutes: number;
  /** JSON ReportDay[] */
  daily_usage: string;
  /** JSON ReportApp[] */
  top_apps: string;
  /** JSON ReportCategory[] */
  top_categories: string;
  /** JSON ReportLimitHit[] */
  limits_hit: string;
  /** JSON ReportRequest[] */
  requests_answered: string;
  bar_svg: string;
  pie_svg: string;
  bar_png: Buffer | null;
  pie_png: Buffer | null;
  mail_state: ReportMailState;
  mail_claimed_at: string | null;
  created_at: string;
}

export interface ReportsDatabase {
  reports: ReportsTable;
}

export type ReportRow = Selectable<ReportsTable>;

/** What a report holds besides its title and charts (stored as JSON with the report; spec 2 §3 Report). */
export interface ReportDay {
  day: string;
  /** "Monday" … "Sunday" */
  name: string;
  minutes: number;
}
export interface ReportApp {
  packageName: string;
  name: string;
  icon: string | null;
  minutes: number;
}
export interface ReportCategory {
  category: string;
  name: string;
  minutes: number;
}
export interface ReportLimitHit {
  kind: "app" | "category" | "device";
  name: string;
  day: string;
  minutes: number;
  limit: number;
}
export interface ReportRequest {
  packageName: string;
  name: string;
  type: string;
  status: string;
  at: string;
}
