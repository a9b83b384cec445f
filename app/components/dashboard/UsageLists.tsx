import { Link } from "@remix-run/react";
import { formatMinutes } from "~/rules/minutes";
import { isManualInstall } from "~/rules/usage";
import type { DashData } from "./types";
import { useHrefWith } from "./url";
import { AppIcon } from "~/components/AppIcon";

/** Most used apps and most used categories of the period, each with Show More / Show Less. */
export function UsageLists({ data, kidQs }: { data: DashData; kidQs: string }) {
  const to = useHrefWith();
  const u = data.usage!;
  return (
    <div className="lists">
      <section className="card" id="apps" aria-labelledby="apps-title">
        <h2 id="apps-title">Most used apps</h2>
        {u.apps.length ? (
          <ul className="usage-list" data-testid="apps-list">
            {u.apps.map((a) => (
              <UsageRow
                key={a.packageName}
                href={`/application?${new URLSearchParams({ package_name: a.packageName, profile_id: data.profile.id, serialNumber: data.device.serialNumber })}`}
                icon={<AppIcon packageName={a.packageName} title={a.title} icon={a.icon} />}
                title={a.title}
                badges={
                  <>
                    {isManualInstall(a.playStoreCategory) ? <span className="badge badge-grey">Manually Install</span> : null}
                    {a.isAppDisabled ? <span className="badge badge-red">Disabled</span> : null}
                  </>
                }
                used={a.timeInMinute}
                limit={a.enableDailyLimit ? a.dailyLimit : 0}
                progress={a.progress}
                note={a.explanation}
              />
            ))}
          </ul>
        ) : (
          <p className="muted">No apps were used in this period.</p>
        )}
        <MoreLess paging={u.appsPaging} param="apps" to={to} what="apps" />
      </section>
      <section className="card" id="categories" aria-labelledby="cats-title">
        <h2 id="cats-title">Most used categories</h2>
        {u.categories.length ? (
          <ul className="usage-list" data-testid="categories-list">
            {u.categories.map((c) => (
              <UsageRow
                key={c.category}
                href={`/category?${new URLSearchParams({ id: c.category, ...Object.fromEntries(new URLSearchParams(kidQs)) })}`}
                title={c.name}
                badges={c.isCategoryEnabled ? null : <span className="badge badge-red">Disabled</span>}
                used={c.usedTime}
                limit={c.enableDailyLimit ? c.dailyLimitTime : 0}
                progress={c.progress}
              />
            ))}
          </ul>
        ) : (
          <p className="muted">No categories were used in this period.</p>
        )}
        <MoreLess paging={u.catsPaging} param="cats" to={to} what="categories" />
      </section>
    </div>
  );
}

/** One row of "Most used apps" or "Most used categories": time used, the daily limit and its progress bar. */
function UsageRow(p: {
  href: string;
  icon?: React.ReactNode;
  title: string;
  badges: React.ReactNode;
  used: number;
  limit: number;
  progress: { percent: number; over: boolean };
  /** What the phone decides now (issue 21): "25 minutes left today", "Blocked by Bedtime until 07:00". */
  note?: { text: string; tone: "blocked" | "limited" } | null;
}) {
  return (
    <li>
      <Link to={p.href} className="usage-item">
        {p.icon ?? null}
        <span className="usage-main">
          <span className="usage-title">
            {p.title}
            {p.badges}
          </span>
          <span className="muted small">
            {formatMinutes(p.used)}
            {p.limit > 0 ? ` of ${formatMinutes(p.limit)} a day` : ""}
          </span>
          {p.note ? (
            <span className={`small time-note time-note-${p.note.tone}`} data-testid="time-explanation">
              {p.note.text}
            </span>
          ) : null}
          {p.limit > 0 ? <Progress percent={p.progress.percent} over={p.progress.over} label={`${p.title} limit used`} /> : null}
        </span>
      </Link>
    </li>
  );
}

function Progress({ percent, over, label }: { percent: number; over: boolean; label: string }) {
  return (
    <span
      className={`progress${over ? " over" : ""}`}
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      data-over={over}
    >
      <span style={{ width: `${percent}%` }} />
    </span>
  );
}

function MoreLess({
  paging,
  param,
  to,
  what,
}: {
  paging: { showMore: number | null; showLess: number | null; count: number; total: number };
  param: string;
  to: ReturnType<typeof useHrefWith>;
  what: string;
}) {
  if (!paging.showMore && !paging.showLess) return null;
  return (
    <div className="more-less">
      {paging.showMore ? (
        <Link
          to={`${to({ [param]: paging.showMore })}#${param === "apps" ? "apps" : "categories"}`}
          preventScrollReset
          replace
          aria-label={`Show More ${what}`}
        >
          Show More
        </Link>
      ) : null}
      {paging.showLess ? (
        <Link
          to={`${to({ [param]: null })}#${param === "apps" ? "apps" : "categories"}`}
          preventScrollReset
          replace
          aria-label={`Show Less ${what}`}
        >
          Show Less
        </Link>
      ) : null}
    </div>
  );
}
