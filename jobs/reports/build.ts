import {
  closedPeriods,
  isTimeZone,
  lastClosedPeriod,
  periodBounds,
  periodTitle,
  previousPeriod,
  type Period,
} from "../../core/report-periods";
import type { DB } from "../../db/index";
import { newId, nowIso } from "../../core/ids.server";
import {
  answeredRequests,
  existingReportKeys,
  hourlyUsage,
  insertReport,
  kidLimits,
  reportTargets,
  totalMinutes,
  type ReportTarget,
} from "../../db/queries/reports";
import { OTHER_CATEGORIES } from "../../core/report-colours";
import { composeReport } from "./compose";
import { mailPendingReports, type ReportMailer } from "./mail";

type Log = (level: "debug" | "info" | "warn" | "error", msg: string, extra?: Record<string, unknown>) => void;

/** What the report job needs; the mail transport and the link settings come from the composition root. */
export interface ReportDeps {
  db: DB;
  log?: Log;
  /** Sends a report mail (SMTP or the dev mailbox); without it reports are built and no mail is sent. */
  mailer?: ReportMailer;
  /** PUBLIC_URL: links in the mail. */
  publicUrl?: string;
  /** SESSION_SECRET: signs the unsubscribe link. */
  secret?: string;
}

export interface BuildOptions {
  now?: Date;
  /** Back-fill every closed period starting on or after this local date (no mail for those); default: the last closed period only. */
  since?: string;
  profileIds?: string[];
  /** Called after each kid (progress; tests throw from it to simulate a crash mid-run). */
  afterKid?: (done: number, total: number, built: number) => void;
}

export interface BuildSummary {
  kids: number;
  built: number;
  existing: number;
  mailed: number;
}

/** Builds one report and stores it; false when another run stored it first (the unique key decides). */
export async function buildReport(db: DB, t: ReportTarget, period: Period, opts: { now: Date; mail: boolean }): Promise<boolean> {
  const tz = isTimeZone(t.timeZone) ? t.timeZone : "UTC";
  const { from, to } = periodBounds(period, tz);
  const prev = periodBounds(previousPeriod(period), tz);
  const [hours, limits, requests, previous] = await Promise.all([
    hourlyUsage(db, t.profileId, from, to),
    kidLimits(db, t.profileId),
    answeredRequests(db, t.profileId, from, to),
    totalMinutes(db, t.profileId, prev.from, prev.to),
  ]);
  const r = composeReport(period, tz, hours, limits);
  const title = periodTitle(t.kidName, period);
  // The pie: the top categories in the page's order and colours, then the rest as one slice.
  const pieCategories = [...r.topCategories];
  const rest = r.total - r.topCategories.reduce((s, c) => s + c.minutes, 0);
  if (rest > 0) pieCategories.push({ category: OTHER_CATEGORIES, name: "Other categories", minutes: rest });
  // nivo and react-dom/server are loaded when a report is first built, not when a device process starts (they were
  // a third of its start-up: the restart after kill -9 of all, issue 22).
  const charts = await import("./charts");
  return insertReport(db, {
    id: newId(),
    profile_id: t.profileId,
    kind: period.kind,
    period_start: period.start,
    period_end: period.end,
    time_zone: tz,
    title,
    total_minutes: r.total,
    previous_minutes: previous,
    daily_usage: JSON.stringify(r.dailyUsage),
    top_apps: JSON.stringify(r.topApps),
    top_categories: JSON.stringify(r.topCategories),
    limits_hit: JSON.stringify(r.limitsHit),
    requests_answered: JSON.stringify(requests),
    bar_svg: charts.renderDailyBarSvg(
      r.dailyUsage.map((d) => ({
        label: period.kind === "Weekly" ? d.name.slice(0, 3) : String(Number(d.day.slice(8))),
        minutes: d.minutes,
      })),
      `Daily screen time, ${title}`,
    ),
    pie_svg: charts.renderCategoryPieSvg(pieCategories, `Screen time by category, ${title}`),
    bar_png: null,
    pie_png: null,
    mail_state: opts.mail ? "pending" : "none",
    created_at: nowIso(opts.now),
  });
}

/**
 * The report job: for every kid whose parent wants reports, builds each closed period's report that is missing
 * (the last closed period, or every one since `since`), then mails the reports still owed. Safe to run any
 * number of times, from any number of processes: a stored report is never rebuilt or replaced, a crash after
 * any kid leaves only what the next run builds, and a mail is claimed before it is sent.
 */
export async function buildDueReports(deps: ReportDeps, opts: BuildOptions = {}): Promise<BuildSummary> {
  const now = opts.now ?? new Date();
  const targets = await reportTargets(deps.db, { profileIds: opts.profileIds });
  const plans = targets.map((t) => {
    const tz = isTimeZone(t.timeZone) ? t.timeZone : "UTC";
    const periods = opts.since ? closedPeriods(t.kind, opts.since, now, tz) : [lastClosedPeriod(t.kind, now, tz)];
    // No report for a period that ended before the kid (or its first phone) was there.
    return { t, periods: periods.filter((p) => periodBounds(p, tz).to > t.since) };
  });
  const earliest = plans.flatMap((p) => p.periods.map((x) => x.start)).sort()[0];
  const existing = earliest
    ? await existingReportKeys(
        deps.db,
        targets.map((t) => t.profileId),
        earliest,
      )
    : new Set<string>();
  const summary: BuildSummary = { kids: targets.length, built: 0, existing: 0, mailed: 0 };
  for (const [i, { t, periods }] of plans.entries()) {
    for (const p of periods) {
      if (existing.has(`${t.profileId}|${p.kind}|${p.start}`)) {
        summary.existing++;
        continue;
      }
      if (await buildReport(deps.db, t, p, { now, mail: !opts.since })) summary.built++;
      else summary.existing++;
    }
    opts.afterKid?.(i + 1, plans.length, summary.built);
  }
  if (deps.mailer) summary.mailed = await mailPendingReports({ ...deps, mailer: deps.mailer }, now);
  if (summary.built || summary.mailed) deps.log?.("info", "reports built", { ...summary });
  return summary;
}
