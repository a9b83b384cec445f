import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { AppIcon } from "~/components/AppIcon";

export interface AppRowApp {
  packageName: string;
  title: string;
  icon: string | null;
  enableDailyLimit: boolean;
  dailyLimit: number;
  isAppDisabled: boolean;
  progress: { percent: number; over: boolean };
}

/**
 * One app in a list (the kid's apps, a category's most used apps): icon, title, "Disabled", a line of detail
 * (`children`) and the limit's bar, red at or over it; the whole row links to the app's page.
 */
export function AppRow({ app: a, href, children }: { app: AppRowApp; href: string; children: ReactNode }) {
  const limited = a.enableDailyLimit && a.dailyLimit > 0;
  return (
    <li>
      <Link to={href} className="usage-item">
        <AppIcon packageName={a.packageName} title={a.title} icon={a.icon} />
        <span className="usage-main">
          <span className="usage-title">
            {a.title}
            {a.isAppDisabled ? <span className="badge badge-red">Disabled</span> : null}
          </span>
          <span className="muted small">{children}</span>
          {limited ? (
            <span
              className={`progress${a.progress.over ? " over" : ""}`}
              role="progressbar"
              aria-label={`${a.title} limit used`}
              aria-valuenow={a.progress.percent}
              aria-valuemin={0}
              aria-valuemax={100}
              data-over={a.progress.over}
            >
              <span style={{ width: `${a.progress.percent}%` }} />
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}
