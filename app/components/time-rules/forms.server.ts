import { json, type AppLoadContext } from "@remix-run/node";
import { SESSION_BREAK_MESSAGE, SESSION_MINUTES_MESSAGE } from "#core/time-values";
import { WEEKDAYS } from "#core/zoned-time";
import { bonusOnLocalToday } from "#db/queries/time-rules/bonus";
import { getTimeRule } from "#db/queries/time-rules/rules";
import type { TimeRuleScope } from "#db/schema-time-rules";
import { BONUS_MAX, BONUS_MESSAGE, BONUS_STEP } from "#device-service/bonus";
import type { Parent } from "#db/schema";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { checkDailyLimit, formatMinutes, stepMinutes, toMinutes } from "~/rules/minutes";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * "Customise by day" and "Bonus time" (issue 21 items 1 and 3) for the whole phone (Global Settings), a category
 * (/category) and an app (/application, the dashboard for the phone's bonus). Without JavaScript the steppers post
 * a draft the server keeps in the URL (?days=…, ?bonus=…); Save stores it through the device service.
 */

type Db = AppLoadContext["services"]["db"];
export const DEFAULT_BONUS = 30;
const NOT_SAVED = { type: "info" as const, message: "Not saved yet: press Save." };

export interface WeekdayDraft {
  /** The seven steppers are shown (a saved rule, ?byDay=1 or a draft). */
  open: boolean;
  /** A rule by weekday is saved (else one value holds every day). */
  customised: boolean;
  minutes: number[];
}

/** The seven values shown: the draft in the URL, the saved rule, or today's one value for every day. */
export function weekdayDraft(url: URL, saved: number[] | null, everyDay: number): WeekdayDraft {
  const draft = url.searchParams.get("days");
  const parsed = draft?.split(",").map(toMinutes);
  const minutes = parsed?.length === 7 ? parsed : (saved ?? Array(7).fill(Math.max(0, everyDay)));
  return { open: Boolean(saved) || url.searchParams.get("byDay") === "1" || parsed?.length === 7, customised: Boolean(saved), minutes };
}

export async function savedWeekdays(db: Db, profileId: string, scope: TimeRuleScope, target: string): Promise<number[] | null> {
  return (await getTimeRule(db, profileId, scope, scope === "phone" ? "" : target)).weekdayMinutes;
}

/** Bonus minutes given for the kid's today to this scope and target (`timeZone`: the family's, when already read). */
export async function bonusToday(
  db: Db,
  profileId: string,
  scope: TimeRuleScope,
  target: string,
  now: Date = new Date(),
  timeZone?: string,
): Promise<number> {
  const all = await bonusOnLocalToday(db, profileId, now, timeZone);
  return all.filter((b) => b.scope === scope && b.target === (scope === "phone" ? "" : target)).reduce((n, b) => n + b.minutes, 0);
}

export function bonusDraft(url: URL): number {
  const v = url.searchParams.get("bonus");
  return v === null ? DEFAULT_BONUS : toMinutes(v);
}

interface Ctx {
  request: Request;
  context: AppLoadContext;
  parent: Parent;
  profileId: string;
  scope: TimeRuleScope;
  target: string;
}

/**
 * The "weekdays" intent: a − or + of one day keeps a draft; "Same every day" removes the rule; Save checks each
 * day with the daily limit's rules (spec messages, prefixed with the day) and stores the seven values.
 */
export async function weekdaysIntent({ request, context, parent, profileId, scope, target }: Ctx, form: FormData) {
  const values = WEEKDAYS.map((_d, i) => form.get(`day${i}`));
  for (let i = 0; i < 7; i++) {
    const step = form.get(`step-day${i}`);
    if (step === "+15" || step === "-15") {
      const days = values.map((v, j) => (j === i ? stepMinutes(v, step === "+15" ? 1 : -1) : toMinutes(v)));
      return redirectWithToast(`${hrefWith(request, { days: days.join(","), byDay: null })}#by-day`, NOT_SAVED);
    }
  }
  const back = hrefWith(request, { days: null, byDay: null });
  const save = (minutes: number[] | null, message: string) =>
    callDevice(
      context,
      parent,
      hrefWith(request, {}),
      async (d) => {
        await d.time.setWeekdayLimits({ profileId, scope, target, minutes });
        return { respones_msg: message };
      },
      message,
      back,
    );
  if (form.get("do") === "reset") return save(null, "The same limit holds every day again.");
  const minutes: number[] = [];
  for (let i = 0; i < 7; i++) {
    const checked = checkDailyLimit(values[i]);
    if (!checked.ok) return json({ intent: "weekdays" as const, error: `${WEEKDAYS[i]}: ${checked.message}`, day: i }, { status: 400 });
    minutes.push(checked.minutes);
  }
  return save(minutes, "Limits by day are saved.");
}

/** The "bonus" intent: − and + keep a draft; Give adds the minutes for today only. */
export async function bonusIntent({ request, context, parent, profileId, scope, target }: Ctx, form: FormData) {
  const step = form.get("step-bonus");
  if (step === "+15" || step === "-15")
    return redirectWithToast(
      `${hrefWith(request, { bonus: String(stepMinutes(form.get("bonus"), step === "+15" ? 1 : -1)) })}#bonus`,
      NOT_SAVED,
    );
  const raw = String(form.get("bonus") ?? "").trim();
  const minutes = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!(minutes >= BONUS_STEP && minutes <= BONUS_MAX && minutes % BONUS_STEP === 0))
    return json({ intent: "bonus" as const, error: BONUS_MESSAGE }, { status: 400 });
  return callDevice(
    context,
    parent,
    hrefWith(request, {}),
    (d) => d.time.grantBonus({ profileId, scope, target: scope === "phone" ? "" : target, minutes }),
    "Bonus time given.",
    hrefWith(request, { bonus: null, modal: null }),
  );
}

export interface SessionDraft {
  /** The saved rule (null: none). */
  saved: { minutes: number; breakMinutes: number } | null;
  /** What the steppers show: the draft in the URL (?session=45,15), the saved rule, or 60 then 15. */
  minutes: number;
  breakMinutes: number;
}

export const DEFAULT_SESSION = { minutes: 60, breakMinutes: 15 } as const;

export async function sessionDraft(db: Db, url: URL, profileId: string, scope: "category" | "app", target: string): Promise<SessionDraft> {
  const rule = await getTimeRule(db, profileId, scope, target);
  const saved = rule.sessionMinutes && rule.breakMinutes ? { minutes: rule.sessionMinutes, breakMinutes: rule.breakMinutes } : null;
  const draft = url.searchParams.get("session")?.split(",").map(toMinutes);
  const [minutes, breakMinutes] =
    draft?.length === 2 ? draft : saved ? [saved.minutes, saved.breakMinutes] : [DEFAULT_SESSION.minutes, DEFAULT_SESSION.breakMinutes];
  return { saved, minutes, breakMinutes };
}

/** "at most 45m in a row, then a 15m break" */
export const sessionText = (s: { minutes: number; breakMinutes: number }) =>
  `at most ${formatMinutes(s.minutes)} in a row, then a ${formatMinutes(s.breakMinutes)} break`;

/** Whole multiples of 15 from 15 to 1440, as typed. */
function sessionValue(v: FormDataEntryValue | null): number | null {
  const raw = String(v ?? "").trim();
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  return n >= 15 && n <= 1440 && n % 15 === 0 ? n : null;
}

/**
 * The "session" intent (issue 21 item 4, an app's or a category's session limit): − and + keep a draft in the URL;
 * Save checks both values (a message on the field at fault, nothing lost) and stores them; Remove turns it off.
 */
export async function sessionIntent(
  { request, context, parent, profileId, scope, target }: Ctx & { scope: "category" | "app" },
  form: FormData,
) {
  const values = [form.get("sessionMinutes"), form.get("breakMinutes")];
  for (const [i, name] of (["step-session", "step-break"] as const).entries()) {
    const step = form.get(name);
    if (step === "+15" || step === "-15") {
      const next = values.map((v, j) => (j === i ? stepMinutes(v, step === "+15" ? 1 : -1) : toMinutes(v)));
      return redirectWithToast(`${hrefWith(request, { session: next.join(",") })}#session`, NOT_SAVED);
    }
  }
  const back = `${hrefWith(request, { session: null })}#session`;
  const save = (minutes: number, breakMinutes: number, message: string) =>
    callDevice(
      context,
      parent,
      `${hrefWith(request, {})}#session`,
      async (d) => {
        await d.time.setSession({ profileId, scope, target, minutes, breakMinutes });
        return { respones_msg: message };
      },
      message,
      back,
    );
  if (form.get("do") === "off") return save(0, 0, "Session limit removed.");
  const [minutes, breakMinutes] = values.map(sessionValue);
  if (minutes === null)
    return json({ intent: "session" as const, error: SESSION_MINUTES_MESSAGE, field: "minutes" as const }, { status: 400 });
  if (breakMinutes === null)
    return json({ intent: "session" as const, error: SESSION_BREAK_MESSAGE, field: "break" as const }, { status: 400 });
  return save(minutes, breakMinutes, `Session limit saved: ${sessionText({ minutes, breakMinutes })}.`);
}
