import { localDay, MINUTE_MS, safeTimeZone } from "../../core/zoned-time";
import type { PolicyDocument } from "../policy/build";
import { enforceContext } from "../policy/enforce";
import { nextWindow } from "../policy/windows";

/** What the kid sees on the phone before time runs out (issue 21 item 5); the simulator records each. */
export interface KidWarning {
  at: string;
  kind: "app" | "category" | "phone" | "schedule";
  /** Package, category id, '' (phone) or the schedule's id. */
  target: string;
  /** The schedule's name, when kind is "schedule". */
  name: string | null;
  minutesBefore: 5 | 1;
}

export const WARN_AT = [5, 1] as const;

/** Warnings due at `now`: a limit with 5 or fewer (1 or fewer) minutes left, a schedule starting within 5 (1). */
export function dueWarnings(
  policy: PolicyDocument,
  usageToday: Record<string, number>,
  now: Date,
): (Omit<KidWarning, "at"> & { key: string })[] {
  const ctx = enforceContext({ policy, usageToday, now });
  const day = localDay(now, ctx.timeZone);
  const out: (Omit<KidWarning, "at"> & { key: string })[] = [];
  const left = (kind: KidWarning["kind"], target: string, minutes: number | null) => {
    if (minutes === null || minutes <= 0) return;
    const threshold = minutes <= 1 ? 1 : minutes <= 5 ? 5 : null;
    if (threshold) out.push({ kind, target, name: null, minutesBefore: threshold, key: `${day}|${kind}|${target}|${threshold}` });
  };
  const counted = policy.apps.filter((a) => !ctx.isKidsApp(a) && !ctx.isExempt(a));
  for (const a of counted) {
    const limit = ctx.limitOf(a);
    left("app", a.packageName, limit === null ? null : limit - ctx.used(a.packageName));
  }
  for (const c of new Set(counted.map((a) => a.category))) {
    const limit = ctx.categoryLimitOf(c);
    left("category", c, limit === null ? null : limit - (ctx.categoryUsed.get(c) ?? 0));
  }
  if (counted.length) left("phone", "", ctx.globalLimit === null ? null : ctx.globalLimit - ctx.globalUsed);
  for (const s of policy.schedules ?? []) {
    const w = nextWindow([s], now, ctx.timeZone);
    if (!w) continue;
    const before = (w.start.getTime() - now.getTime()) / MINUTE_MS;
    const threshold = before <= 1 ? 1 : before <= 5 ? 5 : null;
    if (threshold)
      out.push({
        kind: "schedule",
        target: s.id,
        name: s.name,
        minutesBefore: threshold,
        key: `${w.start.toISOString()}|schedule|${s.id}|${threshold}`,
      });
  }
  return out;
}

/** The next instant a schedule warning falls due after `now`. */
export function nextScheduleWarningAt(policy: PolicyDocument, now: Date): Date | null {
  const tz = safeTimeZone(policy.timeZone);
  let best: Date | null = null;
  for (const s of policy.schedules ?? []) {
    const w = nextWindow([s], now, tz);
    if (!w) continue;
    for (const m of WARN_AT) {
      const t = new Date(w.start.getTime() - m * MINUTE_MS);
      if (t > now && (!best || t < best)) best = t;
    }
  }
  return best;
}
