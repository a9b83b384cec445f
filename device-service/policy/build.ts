import { KIDS_APP_PACKAGE } from "../../core/store";
import { normaliseUrl } from "./urls";
import {
  buildTimeRules,
  NO_TIME_RULES,
  type PolicyBonus,
  type PolicySchedule,
  type SessionRule,
  type TimeRulesInput,
  type WeekMinutes,
} from "./time-rules";

/**
 * The device policy: a pure function of a kid's settings to a document the phone enforces. The version is
 * assigned by storage (policy/store.ts) when the document changes; this module has no I/O.
 */

export const KIDS_APP_PACKAGE_DEFAULT = KIDS_APP_PACKAGE;

export interface PolicyAppInput {
  packageName: string;
  category: string;
  disabled: boolean;
  disabledType: string | null;
  enableDailyLimit: boolean;
  dailyLimitMinutes: number;
  installed: boolean;
}

export interface PolicyCategoryInput {
  category: string;
  enabled: boolean;
  enableDailyLimit: boolean;
  dailyLimitMinutes: number;
}

export interface PolicyInput {
  sleepMode: boolean;
  protectionEnabled: boolean;
  allowFullDeviceAccess: boolean;
  apps: PolicyAppInput[];
  categories: PolicyCategoryInput[];
  /** 0 = no global limit */
  globalDailyLimitMinutes: number;
  blockedUrls: string[];
  locationTracking: { enabled: boolean; intervalMinutes: number };
  kidsAppPackage?: string;
  /** Weekday limits, schedules, sessions, always-allowed apps, today's bonus, the time zone (issue 21). */
  timeRules?: TimeRulesInput;
  /**
   * The kid's web filter hostname (`<filter id>.<DNS_FILTER_DOMAIN>`, core/private-dns.ts) when the filter is on and the
   * kid has a live filter id; null or absent otherwise.
   */
  privateDnsHostname?: string | null;
}

export interface PolicyApp {
  packageName: string;
  category: string;
  installType: "FORCE_INSTALLED" | "AVAILABLE";
  disabled: boolean;
  disabledReason: string | null;
  dailyLimitMinutes: number | null;
  /** The limit per weekday (Monday first) when it differs by day; null = dailyLimitMinutes every day. */
  dailyLimitByWeekday?: WeekMinutes | null;
  /** At most N minutes in a row, then a break. */
  session?: SessionRule | null;
  /** Usable whatever the time rules (the parent's "Always allowed"). */
  alwaysAllowed?: boolean;
}

export interface PolicyCategory {
  category: string;
  enabled: boolean;
  dailyLimitMinutes: number | null;
  dailyLimitByWeekday?: WeekMinutes | null;
  session?: SessionRule | null;
}

export interface PolicyDocument {
  schema: 1;
  sleepMode: { enabled: boolean; allowedPackages: string[] };
  protection: { kidsAppProtected: boolean; settingsLocked: boolean; allowFullDeviceAccess: boolean };
  apps: PolicyApp[];
  limits: {
    globalDailyLimitMinutes: number | null;
    globalByWeekday?: WeekMinutes | null;
    categories: PolicyCategory[];
  };
  blockedUrls: string[];
  location: { tracking: boolean; intervalMinutes: number };
  /** The family's IANA time zone: days, weekdays and windows are the kid's wall clock (issue 21). */
  timeZone?: string;
  schedules?: PolicySchedule[];
  /** Today's bonus minutes; they end at the kid's midnight. */
  bonus?: PolicyBonus | null;
  /**
   * The Private DNS the phone sets (issue 54 item 4): every lookup of every app then goes through the kid's web filter.
   * Absent (read as null) when the filter is off or the kid has no live filter id: a phone of an older kids app ignores
   * the field, and a policy without it reads as before (no new version for phones of a server without the filter).
   */
  privateDns?: { hostname: string } | null;
}

/** Minutes are whole multiples of 15 and never negative (spec 1 §5). */
export function normaliseMinutes(m: number): number {
  if (!Number.isFinite(m) || m <= 0) return 0;
  return Math.ceil(Math.floor(m) / 15) * 15;
}

// Blocked web addresses: one spelling per address, and what an entry covers, live in ./urls (issue 15).
export { normaliseUrl } from "./urls";

/** The entries whose value is set (null and undefined left out). */
function present<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function buildPolicy(input: PolicyInput): PolicyDocument {
  const kidsApp = input.kidsAppPackage ?? KIDS_APP_PACKAGE_DEFAULT;
  const limitsEnforced = !input.allowFullDeviceAccess;
  const rules = buildTimeRules(input.timeRules ?? NO_TIME_RULES, limitsEnforced);
  const apps: PolicyApp[] = [...input.apps]
    .filter((a) => a.installed)
    .sort((a, b) => byString(a.packageName, b.packageName))
    .map((a) => {
      const isKidsApp = a.packageName === kidsApp;
      const limit = a.enableDailyLimit ? normaliseMinutes(a.dailyLimitMinutes) : 0;
      // Only the parent's own disable travels; blocks the phone derived from usage it re-derives itself each day.
      const manual = a.disabled && (a.disabledType ?? "Manually") === "Manually";
      return {
        packageName: a.packageName,
        category: a.category,
        installType: isKidsApp ? "FORCE_INSTALLED" : "AVAILABLE",
        // The kids app is never disabled; full device access lifts every restriction.
        disabled: !isKidsApp && limitsEnforced && manual,
        disabledReason: !isKidsApp && limitsEnforced && manual ? "Manually" : null,
        dailyLimitMinutes: !isKidsApp && limitsEnforced && limit > 0 ? limit : null,
        // Time rules (issue 21) only when set, so a policy without them reads as before.
        ...present({
          dailyLimitByWeekday: !isKidsApp && a.enableDailyLimit ? rules.weekday("app", a.packageName) : null,
          session: isKidsApp ? null : rules.session("app", a.packageName),
          alwaysAllowed: !isKidsApp && rules.alwaysAllowed.has(a.packageName) && limitsEnforced ? true : null,
        }),
      };
    });
  const categories = [...input.categories]
    .sort((a, b) => byString(a.category, b.category))
    .map((c) => {
      const limit = c.enableDailyLimit ? normaliseMinutes(c.dailyLimitMinutes) : 0;
      return {
        category: c.category,
        enabled: limitsEnforced ? c.enabled : true,
        dailyLimitMinutes: limitsEnforced && limit > 0 ? limit : null,
        ...present({
          dailyLimitByWeekday: c.enableDailyLimit ? rules.weekday("category", c.category) : null,
          session: rules.session("category", c.category),
        }),
      };
    });
  const global = normaliseMinutes(input.globalDailyLimitMinutes);
  const tracking = input.locationTracking.enabled;
  return {
    schema: 1,
    // Sleep mode stops the kid's access to the device: only the kids app stays usable (it shows the sleep screen).
    sleepMode: { enabled: input.sleepMode, allowedPackages: input.sleepMode ? [kidsApp] : [] },
    protection: {
      kidsAppProtected: input.protectionEnabled,
      settingsLocked: input.protectionEnabled && !input.allowFullDeviceAccess,
      allowFullDeviceAccess: input.allowFullDeviceAccess,
    },
    apps,
    limits: {
      globalDailyLimitMinutes: limitsEnforced && global > 0 ? global : null,
      ...present({ globalByWeekday: rules.weekday("phone", "") }),
      categories,
    },
    blockedUrls: [...new Set(input.blockedUrls.map(normaliseUrl).filter(Boolean))].sort(byString),
    location: { tracking, intervalMinutes: tracking ? Math.max(15, normaliseMinutes(input.locationTracking.intervalMinutes)) : 0 },
    ...present({
      timeZone: rules.timeZone === "UTC" ? null : rules.timeZone,
      schedules: rules.schedules.length ? rules.schedules : null,
      bonus: rules.bonus,
      privateDns: input.privateDnsHostname ? { hostname: input.privateDnsHostname.toLowerCase() } : null,
    }),
  };
}

/** The parts of a policy whose acknowledgement the dashboard shows separately. */
export function policyAspects(doc: PolicyDocument) {
  return {
    sleepMode: JSON.stringify(doc.sleepMode),
    protection: JSON.stringify(doc.protection),
    limits: JSON.stringify({
      apps: doc.apps.map((a) => [
        a.packageName,
        a.disabled,
        a.dailyLimitMinutes,
        a.dailyLimitByWeekday ?? null,
        a.session ?? null,
        a.alwaysAllowed ?? false,
      ]),
      limits: doc.limits,
      time: [doc.timeZone ?? null, doc.schedules ?? [], doc.bonus ?? null],
    }),
  };
}

export function samePolicy(a: PolicyDocument, b: PolicyDocument): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
