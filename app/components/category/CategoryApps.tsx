import { AppRow, type AppRowApp } from "~/components/apps/AppRow";
import { formatMinutes } from "~/rules/minutes";

interface CategoryApp extends AppRowApp {
  timeInMinute: number;
}

/** Most used apps of a category, each linking to /application; the bar turns red at or over the limit. */
export function CategoryApps({ apps, profileId, serialNumber }: { apps: CategoryApp[]; profileId: string; serialNumber: string }) {
  return (
    <section className="card" aria-labelledby="cat-apps-title">
      <h2 id="cat-apps-title">Most used apps</h2>
      {apps.length ? (
        <ul className="usage-list" data-testid="category-apps">
          {apps.map((a) => (
            <AppRow
              key={a.packageName}
              app={a}
              href={`/application?${new URLSearchParams({ package_name: a.packageName, profile_id: profileId, serialNumber, tab: "usage" })}`}
            >
              {formatMinutes(a.timeInMinute)}
              {a.enableDailyLimit && a.dailyLimit > 0 ? ` of ${formatMinutes(a.dailyLimit)} a day` : ""}
            </AppRow>
          ))}
        </ul>
      ) : (
        <p className="muted">No data found.</p>
      )}
    </section>
  );
}
