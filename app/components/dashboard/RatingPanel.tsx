import { Form, Link } from "@remix-run/react";
import { useIsSubmitting } from "~/utils/hooks";
import type { DashData } from "./types";
import { CloseIcon } from "./icons";

/** The app-rating panel: the kid's newly installed apps, until the parent closes it. */
export function RatingPanel({ data }: { data: DashData }) {
  const busy = useIsSubmitting({ intent: "rating-shown" });
  return (
    <section className="card rating-panel" role="dialog" aria-modal="false" aria-labelledby="rating-title" data-testid="rating-popup">
      <div className="row-between">
        <h2 id="rating-title">Rate {data.profile.name}&apos;s new apps</h2>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="rating-shown" />
          <input type="hidden" name="profileId" value={data.profile.id} />
          <button type="submit" className="icon-btn" aria-label="Close app rating" disabled={busy}>
            <CloseIcon />
          </button>
        </Form>
      </div>
      <p className="muted small">Your rating helps other parents. Tap an app to rate it.</p>
      <ul className="rating-apps">
        {data.pendingRatings.map((a) => (
          <li key={a.id}>
            <Link
              to={`/application?${new URLSearchParams({ package_name: a.package_name, profile_id: data.profile.id, serialNumber: data.device.serialNumber, showRating: "true" })}`}
              className="chip"
            >
              {a.title}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
