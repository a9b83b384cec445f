import { Link } from "@remix-run/react";
import { formatMinutes } from "~/rules/minutes";

interface CategoryApp {
  packageName: string;
  title: string;
  icon: string | null;
  timeInMinute: number;
  enableDailyLimit: boolean;
  dailyLimit: number;
  isAppDisabled: boolean;
  progress: { percent: number; over: boolean };
}

/** Most used apps of a category, each linking to /application; the bar turns red at or over the limit. */
export function CategoryApps({ apps, profileId, serialNumber }: { apps: CategoryApp[]; profileId: string; serialNumber: string }) {
  return (
    <section className="card" aria-labelledby="cat-apps-title">
      <h2 id="cat-apps-title">Most used apps</h2>
      {apps.length ? (
        <ul className="usage-list" data-testid="category-apps">
          {apps.map((a) => (
            <li key={a.packageName}>
              <Link to={`/application?${new URLSearchParams({ package_name: a.packageName, profile_id: profileId, serialNumber, tab: "usage" })}`} className="usage-item">
                <span className="app-icon" aria-hidden="true">
                  {a.icon ? <img src={a.icon} alt="" width={36} height={36} /> : a.title.slice(0, 1)}
                </span>
                <span className="usage-main">
                  <span className="usage-title">
                    {a.title}
                    {a.isAppDisabled ? <span className="badge badge-red">Disabled</span> : null}
                  </span>
                  <span className="muted small">
                    {formatMinutes(a.timeInMinute)}
                    {a.enableDailyLimit && a.dailyLimit > 0 ? ` of ${formatMinutes(a.dailyLimit)} a day` : ""}
                  </span>
                  {a.enableDailyLimit && a.dailyLimit > 0 ? (
                    <span className={`progress${a.progress.over ? " over" : ""}`} role="progressbar" aria-label={`${a.title} limit used`} aria-valuenow={a.progress.percent} aria-valuemin={0} aria-valuemax={100} data-over={a.progress.over}>
                      <span style={{ width: `${a.progress.percent}%` }} />
                    </span>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No data found.</p>
      )}
    </section>
  );
}
