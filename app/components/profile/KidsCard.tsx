import { Link } from "@remix-run/react";
import type { ProfileData } from "./ProfileView";

/** 'Your kids': the parent's own kids (to their dashboards) and "Add a kid", the kid switcher's popup (?modal=add-kid). */
export function KidsCard({ kids }: { kids: ProfileData["ownKids"] }) {
  return (
    <section className="card stack" aria-labelledby="own-kids-title" data-testid="own-kids">
      <div className="section-head">
        <h2 id="own-kids-title">Your kids</h2>
        <Link to="?modal=add-kid" className="btn" preventScrollReset>
          Add a kid
        </Link>
      </div>
      {kids.length ? (
        <ul className="own-kids">
          {kids.map((k) => (
            <li key={k.id}>
              <Link to={`/kids-device?profileId=${k.id}`}>{k.name}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">You haven&apos;t added a kid yet.</p>
      )}
    </section>
  );
}
