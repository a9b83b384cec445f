import { safeTimeZone } from "../../core/zoned-time";

/**
 * Time rules as the policy carries them (issue 21): limits by weekday, schedules (time windows), session
 * limits, always-allowed apps and today's bonus minutes, in the family's IANA time zone, so the phone decides
 * alone while offline. Pure; built from the stored rules by `buildTimeRules` (called by buildPolicy).
 */

/** Seven values, Monday first; null = no limit that day. */
export type WeekMinutes = (number | null)[];

export type RuleScope = "phone" | "category" | "app";

export interface SessionRule {
  /** At most this many minutes in a row… */
  minutes: number;
  /** …then a break of this many minutes. */
  breakMinutes: number;
}

export interface PolicySchedule {
  id: string;
  name: string;
  /** Weekdays on which the window starts, 0 = Monday. */
  days: number[];
  /** Minutes since the local midnight; end < start crosses midnight (21:00–07:00). */
  start: number;
  end: number;
  /** The whole phone, or chosen categories and apps. */
  blocks: { all: boolean; categories: string[]; apps: string[] };
}

export interface PolicyBonus {
  /** The kid's local day the minutes are for; they end at its midnight. */
  day: string;
  phone: number;
  categories: Record<string, number>;
  apps: Record<string, number>;
}

/** What the stored rules give (db rows, already parsed). */
export interface TimeRulesInput {
  timeZone: string;
  weekdayLimits: { scope: RuleScope; target: string; minutes: number[] }[];
  sessions: { scope: "category" | "app"; target: string; minutes: number; breakMinutes: number }[];
  alwaysAllowed: string[];
  schedules: PolicySchedule[];
  /** Bonus grants for `bonusDay` (the kid's today when the policy was built). */
  bonus: { scope: RuleScope; target: string; minutes: number }[];
  bonusDay: string;
}

export const NO_TIME_RULES: TimeRulesInput = {
  timeZone: "UTC",
  weekdayLimits: [],
  sessions: [],
  alwaysAllowed: [],
  schedules: [],
  bonus: [],
  bonusDay: "",
};

/** Whole multiples of 15 (rounded up); 0 and below are "no limit". */
function step15(m: number): number | null {
  if (!Number.isFinite(m) || m <= 0) return null;
  return Math.ceil(Math.floor(m) / 15) * 15;
}

export function weekMinutes(values: readonly number[] | null | undefined): WeekMinutes | null {
  if (!values || values.length !== 7) return null;
  return values.map(step15);
}

const bySchedule = (a: PolicySchedule, b: PolicySchedule) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The parts of the policy document the time rules add, in a stable order (the policy is compared as JSON). */
export function buildTimeRules(input: TimeRulesInput, limitsEnforced: boolean) {
  const find = (scope: RuleScope, target: string) => input.weekdayLimits.find((w) => w.scope === scope && w.target === target);
  const session = (scope: "category" | "app", target: string): SessionRule | null => {
    const s = input.sessions.find((x) => x.scope === scope && x.target === target);
    return limitsEnforced && s && s.minutes > 0 && s.breakMinutes > 0 ? { minutes: s.minutes, breakMinutes: s.breakMinutes } : null;
  };
  const bonus: PolicyBonus = { day: input.bonusDay, phone: 0, categories: {}, apps: {} };
  for (const b of input.bonus) {
    const m = Math.max(0, Math.floor(b.minutes));
    if (b.scope === "phone") bonus.phone += m;
    else if (b.scope === "category") bonus.categories[b.target] = (bonus.categories[b.target] ?? 0) + m;
    else bonus.apps[b.target] = (bonus.apps[b.target] ?? 0) + m;
  }
  const hasBonus = bonus.phone > 0 || Object.keys(bonus.categories).length > 0 || Object.keys(bonus.apps).length > 0;
  return {
    timeZone: safeTimeZone(input.timeZone),
    weekday: (scope: RuleScope, target: string) => (limitsEnforced ? weekMinutes(find(scope, target)?.minutes) : null),
    session,
    alwaysAllowed: new Set(input.alwaysAllowed),
    schedules: limitsEnforced
      ? input.schedules
          .filter((s) => s.days.length > 0 && s.start !== s.end)
          .map((s) => ({
            ...s,
            days: [...new Set(s.days)].sort(),
            blocks: { all: s.blocks.all, categories: [...new Set(s.blocks.categories)].sort(), apps: [...new Set(s.blocks.apps)].sort() },
          }))
          .sort(bySchedule)
      : [],
    bonus: limitsEnforced && hasBonus ? bonus : null,
  };
}
