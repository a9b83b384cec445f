import type { Generated } from "kysely";

// ---- time rules (migration 2026-11-23T07-time-rules); part of `Database` in schema.ts ----

export type TimeRuleScope = "phone" | "category" | "app";

/** Per kid and scope: weekday minutes, a session limit, "Always allowed". target: '' (phone), category or package. */
export interface KidTimeRulesTable {
  profile_id: string;
  scope: TimeRuleScope;
  target: string;
  /** JSON: seven minutes, Monday first; null = the same every day. */
  weekday_minutes: string | null;
  session_minutes: number | null;
  break_minutes: number | null;
  always_allowed: Generated<number>;
  updated_at: string;
}

/** A time window: Bedtime, School time… */
export interface KidSchedulesTable {
  id: string;
  profile_id: string;
  name: string;
  /** JSON array of weekdays the window starts on, 0 = Monday. */
  days: string;
  start_minute: number;
  end_minute: number;
  blocks_all: Generated<number>;
  /** JSON arrays */
  categories: Generated<string>;
  apps: Generated<string>;
  created_at: string;
  updated_at: string;
}

/** Extra minutes for one of the kid's days (its local day); they end at its midnight. */
export interface BonusGrantsTable {
  id: string;
  profile_id: string;
  scope: TimeRuleScope;
  target: string;
  day: string;
  minutes: number;
  granted_by: string | null;
  created_at: string;
}

export interface TimeRulesDatabase {
  kid_time_rules: KidTimeRulesTable;
  kid_schedules: KidSchedulesTable;
  bonus_grants: BonusGrantsTable;
}
