import { Link } from "@remix-run/react";
import { useHrefWith } from "~/components/dashboard/url";
import { compactNumber, expertBadge, ratingTone, relativeTime, starsPercent } from "~/rules/ratings";
import type { AppPageData } from "~/routes/_app.application";
import { StarIcon } from "~/components/dashboard/icons";

/** The Info tab: the store listing, the expert rating, kids' and parents' ratings with their last five reviews. */
export function AppInfo({ data }: { data: AppPageData }) {
  const c = data.detail.catalog;
  const to = useHrefWith();
  const badge = expertBadge(c?.expert_rating);
  const kids = data.kidRatings!;
  const parents = data.parentRatings!;
  const now = new Date(data.now);
  const screenshots = c ? (JSON.parse(c.screenshots || "[]") as string[]) : [];
  return (
    <>
      <section className="card" aria-labelledby="store-title">
        <h2 id="store-title">About this app</h2>
        {c ? (
          <dl className="facts">
            <dt>Developer</dt>
            <dd>{c.developer ?? "—"}</dd>
            <dt>Price</dt>
            <dd>{c.free || !(c.price > 0) ? "Free" : `£${c.price.toFixed(2)}`}</dd>
            <dt>Content rating</dt>
            <dd>{c.content_rating ?? "—"}</dd>
            <dt>Genre</dt>
            <dd>{c.genre ?? data.detail.categoryName}</dd>
            <dt>Android</dt>
            <dd>{c.android_version_text ?? "—"}</dd>
            <dt>In-app purchases</dt>
            <dd>{c.offers_iap ? "Yes" : "No"}</dd>
            <dt>Ads</dt>
            <dd>{c.ad_supported ? "Yes" : "No"}</dd>
            <dt>Store rating</dt>
            <dd>
              {c.score_text ?? "—"} ({compactNumber(c.reviews)} reviews)
            </dd>
            <dt>Updated</dt>
            <dd>{c.updated ?? "—"}</dd>
            {c.privacy_policy ? (
              <>
                <dt>Privacy policy</dt>
                <dd>
                  <a href={c.privacy_policy} rel="noopener noreferrer" target="_blank">
                    Read the privacy policy
                  </a>
                </dd>
              </>
            ) : null}
          </dl>
        ) : (
          <p className="muted">Unable to fetch application detail from play store.</p>
        )}
        {screenshots.length ? (
          <div className="screenshots">
            {screenshots.slice(0, 8).map((s, i) => (
              <img key={s} src={s} alt={`Screenshot ${i + 1}`} loading="lazy" />
            ))}
          </div>
        ) : null}
        {/* The description is the store's HTML; shown as text so nothing from outside runs here. */}
        {c?.description_html ? <p>{c.description_html.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]+>/g, "")}</p> : null}
        {c?.recent_changes ? (
          <p>
            <strong>What&apos;s new:</strong> {c.recent_changes.replace(/<[^>]+>/g, "")}
          </p>
        ) : null}
      </section>

      <section className="card" aria-labelledby="expert-title">
        <h2 id="expert-title">Expert rating</h2>
        <span className={`badge badge-${badge.tone}`} data-testid="expert-badge">
          {badge.label}
        </span>
        <p>{badge.note ?? c?.expert_rating_comment}</p>
      </section>

      <section className="card" aria-labelledby="kids-title">
        <h2 id="kids-title">Kids ratings</h2>
        <p className={`rating-big tone-${ratingTone(kids.avgKidsRating)}`} data-testid="kids-average">
          {kids.avgKidsRating ?? "–"} <span className="muted small">from {compactNumber(kids.totalKidsRating)} kids</span>
        </p>
        <p className="muted small">
          Positive {kids.positivePercent}% · Neutral {kids.naturalPercent}% · Negative {kids.negativePercent}%
        </p>
        <ul className="reviews">
          {kids.lastFiveReviews.map((r) => (
            <li key={r.id}>
              <strong>{r.name}</strong> · {r.kidsRating} <Stars /> · <span className="muted small">{relativeTime(r.created_at, now)}</span>
              {r.review ? <p>{r.review}</p> : null}
            </li>
          ))}
        </ul>
        {kids.lastFiveReviews.length ? null : <p className="muted">No data found.</p>}
      </section>

      <section className="card" aria-labelledby="parents-title">
        <div className="row-between">
          <h2 id="parents-title">Parent ratings</h2>
          <Link to={to({ modal: "rating", showRating: null })} className="btn btn-outline" preventScrollReset>
            Rate this app
          </Link>
        </div>
        <p className={`rating-big tone-${ratingTone(parents.parentsRatingAvg)}`}>
          {parents.parentsRatingAvg ?? "–"} <span className="muted small">from {compactNumber(parents.totalParentsRating)} parents</span>
        </p>
        <p className="muted small">
          Educational {starsPercent(parents.educational)}% · Positive {starsPercent(parents.positive)}% · Suitable content{" "}
          {starsPercent(parents.suitableContent)}% · Easy to understand {starsPercent(parents.easyToUnderstand)}% ·{" "}
          {compactNumber(parents.upVoting)} recommend, {compactNumber(parents.downVoting)} do not
        </p>
        <ul className="reviews" data-testid="parent-reviews">
          {parents.lastFiveReviews.map((r) => (
            <li key={r.id}>
              <strong>{r.name}</strong> for {r.kidName} · <span className="muted small">{relativeTime(r.updated_at, now)}</span>
              <p className="muted small">
                Educational {r.isEducational} <Stars /> · Positive {r.isPositive} <Stars /> · Suitable {r.isSuitableContent} <Stars /> ·
                Easy {r.isEasyToUnderstand} <Stars />
                {r.isRecommend ? " · Recommends" : ""}
              </p>
              {r.review ? <p>{r.review}</p> : null}
            </li>
          ))}
        </ul>
        {parents.lastFiveReviews.length ? null : <p className="muted">No data found.</p>}
      </section>
    </>
  );
}

/** A rating's unit: the star icon, read as "stars". */
function Stars() {
  return <StarIcon title="stars" className="star" />;
}
