import { Form, Link } from "@remix-run/react";
import { expertBadge, ratingTone } from "~/rules/ratings";
import { COMING_SOON, SYSTEM_APP_MESSAGE, installButton, priceText } from "~/rules/store";
import { useIsSubmitting } from "~/utils/hooks";
import type { InstallRetryView } from "#db/queries/store/installed";
import type { ExpertRating } from "#db/schema";
import { ChangedBy } from "~/components/ChangedBy";
import { RetryLine } from "./FailureModal";
import { StarIcon } from "~/components/dashboard/icons";
import { AppIcon } from "~/components/AppIcon";

export interface StoreItem {
  appId: string;
  title: string;
  icon: string;
  expertRating: ExpertRating;
  scoreText: string | null;
  kidsRating?: number | null;
  overallRating?: number | null;
  price: number;
  free: boolean;
  isAppInstalled: boolean;
  isSystemApp: boolean;
  installState?: string | null;
  failureReason?: string | null;
  enableDailyLimit?: boolean;
  dailyLimitTime?: number;
  retry?: InstallRetryView | null;
  /** "Changed by …" (issue 18): who installed it or last changed its limit from the portal. */
  changedBy?: string | null;
}

type To = (changes: Record<string, string | number | null>) => string;

/** Play store list items (spec 2 §3): icon, title, expert badge, score, kid and overall rating, price, the install button. */
export function StoreList({
  items,
  to,
  appHref,
  kidsAppPackage,
  maxAttempts,
  label,
  anchorAt = null,
}: {
  items: StoreItem[];
  to: To;
  appHref: (appId: string) => string;
  kidsAppPackage: string;
  maxAttempts: number;
  label: string;
  anchorAt?: number | null;
}) {
  const busy = useIsSubmitting({ intent: "uninstall" });
  // One form for every Uninstall button: the pressed button sends its app (name/value), with JavaScript or
  // without. A form per row cost a third of each row's render (80 rows on a full phone; docs/performance.md).
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="intent" value="uninstall" />
      <ul className="store-list" aria-label={label}>
        {items.map((a, i) => (
          <StoreRow
            key={a.appId}
            a={a}
            to={to}
            href={appHref(a.appId)}
            kidsAppPackage={kidsAppPackage}
            maxAttempts={maxAttempts}
            busy={busy}
            anchor={i === anchorAt ? MORE_ANCHOR : undefined}
          />
        ))}
      </ul>
    </Form>
  );
}

/** The first row a Show More added: without JavaScript the browser scrolls to it (and a reader lands on it). */
const MORE_ANCHOR = "more-results";

/** Show More / Show Less under the search results; the count lives in the URL (`shown`). */
export function ResultsMoreLess({ paging, to }: { paging: { showMore: number | null; showLess: boolean }; to: To }) {
  if (!paging.showMore && !paging.showLess) return null;
  return (
    <div className="more-less">
      {paging.showMore ? (
        <Link
          to={`${to({ shown: paging.showMore, modal: null })}#${MORE_ANCHOR}`}
          preventScrollReset
          replace
          aria-label="Show More results"
        >
          Show More
        </Link>
      ) : null}
      {paging.showLess ? (
        <Link to={to({ shown: null, modal: null })} preventScrollReset replace aria-label="Show Less results">
          Show Less
        </Link>
      ) : null}
    </div>
  );
}

function StoreRow({
  a,
  to,
  href,
  kidsAppPackage,
  maxAttempts,
  busy,
  anchor,
}: {
  a: StoreItem;
  to: To;
  href: string;
  kidsAppPackage: string;
  maxAttempts: number;
  busy: boolean;
  anchor?: string;
}) {
  const badge = expertBadge(a.expertRating);
  const button = installButton(a, kidsAppPackage);
  const failed = a.installState === "failed" && a.failureReason;
  return (
    <li
      id={anchor}
      className="store-item"
      data-testid="store-item"
      data-app={a.appId}
      data-state={a.installState ?? (a.isAppInstalled ? "installed" : "none")}
    >
      <AppIcon packageName={a.appId} title={a.title} icon={a.icon} size={48} />
      <div className="store-main">
        <Link to={href} className="store-title">
          {a.title}
        </Link>
        <div className="store-meta">
          <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
          {a.scoreText ? (
            <span title="Play Store score">
              <StarIcon /> {a.scoreText}
            </span>
          ) : null}
          {a.kidsRating != null ? <span className={`tone-${ratingTone(a.kidsRating)}`}>Kids {a.kidsRating}</span> : null}
          {a.overallRating != null ? <span>Overall {a.overallRating}</span> : null}
          <span className="store-price">{priceText(a.price, a.free)}</span>
        </div>
        {a.isAppInstalled && a.enableDailyLimit ? (
          <p className="muted" data-testid="app-limit">
            Daily limit {a.dailyLimitTime} minutes
          </p>
        ) : null}
        <ChangedBy by={a.changedBy} testId="store-changed-by" />
        {button === "installing" ? (
          <p className="badge badge-orange" data-testid="install-status">
            Installing…
          </p>
        ) : null}
        {failed ? (
          <p data-testid="install-status">
            <span className="badge badge-red">Not installed</span>{" "}
            <Link to={to({ modal: "failure", appId: a.appId })} preventScrollReset>
              Why?
            </Link>
          </p>
        ) : null}
        {a.retry && (failed || button === "installing") ? <RetryLine retry={a.retry} maxAttempts={maxAttempts} /> : null}
      </div>
      <div className="store-action">
        <ActionButton a={a} button={button} to={to} busy={busy} />
      </div>
    </li>
  );
}

function ActionButton({ a, button, to, busy }: { a: StoreItem; button: ReturnType<typeof installButton>; to: To; busy: boolean }) {
  switch (button) {
    case "install":
      return (
        <Link
          to={to({ modal: "install", appId: a.appId, limitOn: null, limit: null })}
          className="btn btn-small"
          preventScrollReset
          aria-label={`Install ${a.title}`}
        >
          Install
        </Link>
      );
    case "coming-soon":
      return <span className="badge badge-grey">{COMING_SOON}</span>;
    case "installing":
      return <span className="muted">Installing…</span>;
    case "uninstall":
    case "kids-app": // the button is there; the server refuses with the spec's message (KIDS_APP_MESSAGE)
      return (
        <button
          type="submit"
          name="packageName"
          value={a.appId}
          className="btn btn-small btn-danger-outline"
          disabled={busy}
          aria-label={`Uninstall ${a.title}`}
        >
          Uninstall
        </button>
      );
    case "system-app":
      return <p className="store-note">{SYSTEM_APP_MESSAGE}</p>;
  }
}
