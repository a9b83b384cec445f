/**
 * The enforcement decision, as the phone makes it and as the portal explains it: given the policy it holds,
 * today's usage (the kid's local day in the family's time zone), the use in a row and the time, for every app
 * whether it is usable now, why not, until when, the minutes left today and the next change. Pure; the
 * simulator runs it on every usage report, every policy and at each change it announces, and reports each
 * change (appEnabledDisabledType, spec 2 §4). The pages run it to say "Blocked by Bedtime until 07:00".
 *
 * Every rule that blocks an app gives a block with its end. The parent's own blocks (no end) win; otherwise
 * the block that ends first gives the reason and the "until" (ties in the order of RULES), so each message is
 * true and changes when that block ends.
 */
import { localDay, nextMidnight, safeTimeZone, wallClock } from "../../core/zoned-time";
import type { PolicyApp, PolicyCategory, PolicyDocument } from "./build";
import type { WeekMinutes } from "./time-rules";
import { activeWindows, nextWindow, sessionState, type UseInterval, type Window } from "./windows";

export type BlockReason = "Manually" | "Overuse" | "Category Overuse" | "Cronjob" | "Global Daily Limit Reach" | "Session Break";
export type { UseInterval } from "./windows";

/** The phone app stays usable when the day's screen time is used up (emergency calls). */
export const PHONE_APP_PACKAGES = ["com.google.android.dialer", "com.android.dialer", "com.samsung.android.dialer"] as const;

export interface EnforceInput {
  policy: PolicyDocument;
  /** Minutes per package used today (the kid's local day). */
  usageToday: Readonly<Record<string, number>>;
  now: Date;
  /** Extra minutes granted today per package, on top of the policy's bonus; raises the app's limit. */
  bonusMinutes?: Readonly<Record<string, number>>;
  /** Today's use as intervals (session limits); without them no app is on a break. */
  recentUse?: readonly UseInterval[];
}

export interface Block {
  reason: BlockReason;
  /** When this block ends by itself; null = when the parent changes it. */
  until: Date | null;
  /** The schedule's name for "Cronjob". */
  scheduleName: string | null;
}

export interface AppDecision {
  packageName: string;
  blocked: boolean;
  reason: BlockReason | null;
  /** When the shown block ends (the earliest end among the blocks now); null when not blocked or by hand. */
  until: Date | null;
  scheduleName: string | null;
  /** Minutes left today under the app's, its category's and the phone's limits; null when none applies. */
  minutesLeft: number | null;
  /** Which limit leaves the fewest minutes. */
  limitedBy: "app" | "category" | "phone" | null;
  /** Minutes left before a session break, when a session limit applies. */
  sessionMinutesLeft: number | null;
  /** The next time-driven change: the shown block ending, or a schedule starting. */
  nextChange: { at: Date; blocked: boolean; reason: BlockReason | null; scheduleName: string | null } | null;
}

/** What every rule may look at, computed once per decision. */
export interface EnforceContext extends EnforceInput {
  timeZone: string;
  /** 0 = Monday */
  weekday: number;
  midnight: Date;
  used(pkg: string): number;
  /** The app's limit today (weekday, bonus), or null. */
  limitOf(app: PolicyApp): number | null;
  categoryLimitOf(category: string): number | null;
  globalLimit: number | null;
  categoryUsed: ReadonlyMap<string, number>;
  categories: ReadonlyMap<string, PolicyCategory>;
  /** Today's screen time that counts towards the global limit. */
  globalUsed: number;
  windows: Window[];
  isKidsApp(app: PolicyApp): boolean;
  /** Usable whatever the time rules: the phone app and the parent's "Always allowed" (only by hand). */
  isExempt(app: PolicyApp): boolean;
  packagesOf(category: string): ReadonlySet<string>;
}

export type Rule = (app: PolicyApp, ctx: EnforceContext) => Block | null;

const block = (reason: BlockReason, until: Date | null, scheduleName: string | null = null): Block => ({ reason, until, scheduleName });

const manual: Rule = (app) => (app.disabled ? block("Manually", null) : null);
const categoryOff: Rule = (app, ctx) => (ctx.categories.get(app.category)?.enabled === false ? block("Manually", null) : null);
const schedule: Rule = (app, ctx) => {
  if (ctx.isExempt(app)) return null;
  const w = ctx.windows.filter((x) => covers(x, app)).sort((a, b) => a.end.getTime() - b.end.getTime())[0];
  return w ? block("Cronjob", w.end, w.schedule.name) : null;
};
const appOveruse: Rule = (app, ctx) => {
  const limit = ctx.limitOf(app);
  return !ctx.isExempt(app) && limit !== null && ctx.used(app.packageName) >= limit ? block("Overuse", ctx.midnight) : null;
};
const categoryOveruse: Rule = (app, ctx) => {
  const limit = ctx.categoryLimitOf(app.category);
  return !ctx.isExempt(app) && limit !== null && (ctx.categoryUsed.get(app.category) ?? 0) >= limit
    ? block("Category Overuse", ctx.midnight)
    : null;
};
const globalLimit: Rule = (app, ctx) => {
  const limit = ctx.globalLimit;
  return !ctx.isExempt(app) && limit !== null && ctx.globalUsed >= limit ? block("Global Daily Limit Reach", ctx.midnight) : null;
};
const sessionBreak: Rule = (app, ctx) => {
  if (ctx.isExempt(app) || !ctx.recentUse) return null;
  let until: Date | null = null;
  for (const [rule, pkgs] of sessionRules(app, ctx)) {
    const s = sessionState(rule, ctx.recentUse, pkgs, ctx.now);
    if (s.breakUntil && s.breakUntil > ctx.now && (!until || s.breakUntil > until)) until = s.breakUntil;
  }
  return until ? block("Session Break", until) : null;
};

/** In order of precedence for ties: the parent's hand, schedules, the app's limit, the category's, the phone's, breaks. */
export const RULES: readonly Rule[] = [manual, categoryOff, schedule, appOveruse, categoryOveruse, globalLimit, sessionBreak];

function covers(w: Window, app: PolicyApp): boolean {
  const b = w.schedule.blocks;
  return b.all || b.categories.includes(app.category) || b.apps.includes(app.packageName);
}

function sessionRules(app: PolicyApp, ctx: EnforceContext) {
  const out: [NonNullable<PolicyApp["session"]>, ReadonlySet<string>][] = [];
  if (app.session) out.push([app.session, new Set([app.packageName])]);
  const c = ctx.categories.get(app.category)?.session;
  if (c) out.push([c, ctx.packagesOf(app.category)]);
  return out;
}

const ofDay = (base: number | null, byWeekday: WeekMinutes | null | undefined, weekday: number) =>
  byWeekday ? (byWeekday[weekday] ?? null) : base;
const plus = (limit: number | null, bonus: number | undefined) => (limit === null ? null : limit + Math.max(0, Number(bonus ?? 0) || 0));

export function enforceContext(input: EnforceInput): EnforceContext {
  const { policy, now } = input;
  const timeZone = safeTimeZone(policy.timeZone);
  const { weekday, date: today } = wallClock(now, timeZone);
  const bonus = policy.bonus && policy.bonus.day === today ? policy.bonus : null;
  const used = (pkg: string) => Math.max(0, Number(input.usageToday[pkg] ?? 0) || 0);
  const isKidsApp = (a: PolicyApp) => a.installType === "FORCE_INSTALLED";
  const isExempt = (a: PolicyApp) => a.alwaysAllowed === true || (PHONE_APP_PACKAGES as readonly string[]).includes(a.packageName);
  const categories = new Map(policy.limits.categories.map((c) => [c.category, c]));
  const categoryUsed = new Map<string, number>();
  const members = new Map<string, Set<string>>();
  let globalUsed = 0;
  for (const a of policy.apps) {
    if (isKidsApp(a) || a.alwaysAllowed) continue;
    categoryUsed.set(a.category, (categoryUsed.get(a.category) ?? 0) + used(a.packageName));
    members.set(a.category, (members.get(a.category) ?? new Set()).add(a.packageName));
    globalUsed += used(a.packageName);
  }
  return {
    ...input,
    timeZone,
    weekday,
    midnight: nextMidnight(now, timeZone),
    used,
    limitOf: (a) =>
      plus(
        plus(ofDay(a.dailyLimitMinutes, a.dailyLimitByWeekday, weekday), bonus?.apps[a.packageName]),
        input.bonusMinutes?.[a.packageName],
      ),
    categoryLimitOf: (c) => {
      const cat = categories.get(c);
      return cat ? plus(ofDay(cat.dailyLimitMinutes, cat.dailyLimitByWeekday, weekday), bonus?.categories[c]) : null;
    },
    globalLimit: plus(ofDay(policy.limits.globalDailyLimitMinutes, policy.limits.globalByWeekday, weekday), bonus?.phone),
    categoryUsed,
    categories,
    globalUsed,
    windows: activeWindows(policy.schedules ?? [], now, timeZone),
    isKidsApp,
    isExempt,
    packagesOf: (c) => members.get(c) ?? new Set(),
  };
}

/** The block shown: the parent's own first, else the one ending first (ties in RULES order). */
function shown(app: PolicyApp, ctx: EnforceContext, rules: readonly Rule[]): Block | null {
  if (ctx.isKidsApp(app)) return null;
  let best: Block | null = null;
  for (const rule of rules) {
    const b = rule(app, ctx);
    if (!b) continue;
    if (b.until === null) return b;
    if (!best || b.until < best.until!) best = b;
  }
  return best;
}

function minutesLeftOf(app: PolicyApp, ctx: EnforceContext): Pick<AppDecision, "minutesLeft" | "limitedBy" | "sessionMinutesLeft"> {
  if (ctx.isKidsApp(app) || ctx.isExempt(app)) return { minutesLeft: null, limitedBy: null, sessionMinutesLeft: null };
  let minutesLeft: number | null = null;
  let limitedBy: AppDecision["limitedBy"] = null;
  const consider = (limit: number | null, usedMinutes: number, by: NonNullable<AppDecision["limitedBy"]>) => {
    if (limit === null) return;
    const left = Math.max(0, limit - usedMinutes);
    if (minutesLeft === null || left < minutesLeft) [minutesLeft, limitedBy] = [left, by];
  };
  consider(ctx.limitOf(app), ctx.used(app.packageName), "app");
  consider(ctx.categoryLimitOf(app.category), ctx.categoryUsed.get(app.category) ?? 0, "category");
  consider(ctx.globalLimit, ctx.globalUsed, "phone");
  let sessionMinutesLeft: number | null = null;
  for (const [rule, pkgs] of sessionRules(app, ctx)) {
    const s = sessionState(rule, ctx.recentUse ?? [], pkgs, ctx.now);
    sessionMinutesLeft = Math.min(sessionMinutesLeft ?? Infinity, s.minutesLeft);
  }
  return { minutesLeft, limitedBy, sessionMinutesLeft };
}

export function decide(input: EnforceInput, rules: readonly Rule[] = RULES): AppDecision[] {
  const ctx = enforceContext(input);
  let later: EnforceContext | undefined;
  const at = (when: Date) => {
    // What holds when the shown block ends: a new day starts with no usage.
    const sameDay = localDay(when, ctx.timeZone) === localDay(input.now, ctx.timeZone);
    return enforceContext({ ...input, now: when, ...(sameDay ? {} : { usageToday: {}, recentUse: [] }) });
  };
  const upcoming = nextWindowsByApp(input, ctx);
  return input.policy.apps.map((app) => {
    const b = shown(app, ctx, rules);
    let nextChange: AppDecision["nextChange"] = null;
    if (b?.until) {
      later = later && later.now.getTime() === b.until.getTime() ? later : at(b.until);
      const after = shown(app, later, rules);
      nextChange = { at: b.until, blocked: after !== null, reason: after?.reason ?? null, scheduleName: after?.scheduleName ?? null };
    } else if (!b) {
      const w = upcoming(app);
      if (w) nextChange = { at: w.start, blocked: true, reason: "Cronjob", scheduleName: w.schedule.name };
    }
    return {
      packageName: app.packageName,
      blocked: b !== null,
      reason: b?.reason ?? null,
      until: b?.until ?? null,
      scheduleName: b?.scheduleName ?? null,
      ...minutesLeftOf(app, ctx),
      nextChange,
    };
  });
}

function nextWindowsByApp(input: EnforceInput, ctx: EnforceContext) {
  return (app: PolicyApp): Window | null => {
    if (ctx.isKidsApp(app) || ctx.isExempt(app)) return null;
    const mine = (input.policy.schedules ?? []).filter(
      (s) => s.blocks.all || s.blocks.categories.includes(app.category) || s.blocks.apps.includes(app.packageName),
    );
    return nextWindow(mine, input.now, ctx.timeZone);
  };
}

/** The earliest time-driven change among the decisions (and the kid's midnight, when limits start over). */
export function nextChangeAt(decisions: readonly AppDecision[], input: Pick<EnforceInput, "policy" | "now">): Date {
  let at = nextMidnight(input.now, safeTimeZone(input.policy.timeZone));
  for (const d of decisions) if (d.nextChange && d.nextChange.at > input.now && d.nextChange.at < at) at = d.nextChange.at;
  return at;
}

export function blockedApps(decisions: AppDecision[]): [string, BlockReason][] {
  return decisions.filter((d) => d.blocked).map((d) => [d.packageName, d.reason!]);
}
