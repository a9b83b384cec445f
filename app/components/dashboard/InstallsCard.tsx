import { Link } from "@remix-run/react";
import { ChangedBy } from "~/components/ChangedBy";
import { failureExplanation } from "~/rules/store";
import type { DashData } from "./types";
import { AppIcon } from "~/components/AppIcon";

/**
 * Store installs on their way to the kid's phone (issue 13): installing, or not installed and why, with a link to
 * the app's page where the failure popup explains what happens next. Live with JavaScript (the page revalidates
 * on the phone's answer); without it the page refreshes itself while something is installing.
 */
export function InstallsCard({ data }: { data: DashData }) {
  if (!data.installs.length) return null;
  const { profile, device } = data;
  const appHref = (packageName: string, modal?: "failure") =>
    `/application?${new URLSearchParams({ profile_id: profile.id, serialNumber: device.serialNumber, package_name: packageName, ...(modal ? { modal } : {}) })}`;
  return (
    <section className="card installs-card" aria-labelledby="installs-title" data-testid="dashboard-installs">
      <h2 id="installs-title">Installing on {profile.name}&apos;s phone</h2>
      <ul className="installs-list">
        {data.installs.map((i) => (
          <li key={i.packageName} data-state={i.state} data-testid="dashboard-install">
            <AppIcon packageName={i.packageName} title={i.title} icon={i.icon} size={32} />
            <Link to={appHref(i.packageName)} className="installs-title">
              {i.title}
            </Link>
            {i.state === "installing" ? (
              <span className="badge badge-orange">Installing…</span>
            ) : (
              <span>
                <span className="badge badge-red">Not installed</span>{" "}
                {failureExplanation(i.failureReason)?.title ?? "The install did not finish"}.{" "}
                <Link to={appHref(i.packageName, "failure")}>Why?</Link>
              </span>
            )}
            <ChangedBy by={i.changedBy} testId="install-changed-by" />
          </li>
        ))}
      </ul>
    </section>
  );
}
