import { CategoryChartFigure } from "~/components/charts/CategoryBarChart";
import { formatMinutes, limitProgress } from "~/rules/minutes";
import { INSTALL_FIRST } from "~/rules/apps";
import type { AppPageData } from "~/routes/_app.application";
import { DeliveryBadge, EnabledSwitch, LimitForm } from "./LimitForm";
import { PeriodNav } from "./PeriodNav";
import { BonusTime, SessionLimit, WeekdayLimits } from "~/components/time-rules/TimeControls";

const REASONS: Record<string, string> = {
  Manually: "Disabled by a parent",
  Overuse: "Disabled: the daily limit is used up",
  "Category Overuse": "Disabled: the category's daily limit is used up",
  Cronjob: "Disabled by a schedule",
  "Session Break": "Disabled: on a break",
  "Global Daily Limit Reach": "Disabled: the phone's daily limit is used up",
};

/** The Usage tab: enable switch, daily limit with its delivery state, and the usage chart (Day / Week). */
export function AppUsage({
  data,
  error,
  failed,
}: {
  data: AppPageData;
  error: string | null;
  failed: { intent: string; error: string; day?: number; field?: "minutes" | "break" } | null;
}) {
  const d = data.detail;
  const u = data.usage!;
  const progress = limitProgress(d.usedToday, d.enableDailyLimit ? d.dailyLimitTime : 0);
  return (
    <>
      <section className="card settings-section" aria-labelledby="control-title">
        <h2 id="control-title">Control</h2>
        {d.isAppInstalled ? (
          <>
            <EnabledSwitch enabled={!d.isAppDisabled} label={d.isAppDisabled ? "Disabled" : "Enabled"} />
            {d.appEnabledDisabledType ? (
              <p className="badge badge-red" data-testid="disabled-reason">
                {REASONS[d.appEnabledDisabledType] ?? "Disabled"}
              </p>
            ) : null}
            <p className="muted small">
              Today: {formatMinutes(d.usedToday)}
              {d.enableDailyLimit && d.dailyLimitTime > 0 ? ` of ${formatMinutes(d.dailyLimitTime)}` : ""}
            </p>
            {d.enableDailyLimit && d.dailyLimitTime > 0 ? (
              <span
                className={`progress${progress.over ? " over" : ""}`}
                role="progressbar"
                aria-label="Daily limit used"
                aria-valuenow={progress.percent}
                aria-valuemin={0}
                aria-valuemax={100}
                data-over={progress.over}
              >
                <span style={{ width: `${progress.percent}%` }} />
              </span>
            ) : null}
            <LimitForm kind="app" draft={data.draft} stored={d.dailyLimitTime} error={error} label="Daily limit" />
            {d.enableDailyLimit ? (
              <WeekdayLimits
                draft={data.weekdays}
                error={failed?.intent === "weekdays" ? { message: failed.error, day: failed.day ?? -1 } : null}
                what="Daily limit"
              />
            ) : null}
            <DeliveryBadge state={u.ack} kidName={data.kid.name} />
            {d.enableDailyLimit ? (
              <BonusTime
                draft={data.bonus.draft}
                givenToday={data.bonus.given}
                error={failed?.intent === "bonus" ? failed.error : null}
                what={data.title}
              />
            ) : null}
            <SessionLimit
              draft={data.session}
              error={failed?.intent === "session" && failed.field ? { message: failed.error, field: failed.field } : null}
              what={data.title}
            />
          </>
        ) : (
          <p className="banner banner-warning">{INSTALL_FIRST}</p>
        )}
      </section>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <PeriodNav period={u.period} />
        <p className="total-time">
          <span className="muted">Screen time</span> <strong data-testid="total-time">{formatMinutes(u.total)}</strong>
        </p>
        <CategoryChartFigure svg={u.chartSvg} data={u.chart} title={u.chartTitle} period={u.period} />
      </section>
    </>
  );
}
