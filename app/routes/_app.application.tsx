import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { z } from "zod";
import { getAppDetail, getAppUsageChart } from "#db/queries/apps";
import { getKidRatings, getParentRatings } from "#db/queries/ratings";
import { appInstallState } from "#db/queries/store/installed";
import { appChangedBy, uninstalledBy } from "#db/queries/parent-profile";
import { ChangedBy } from "~/components/ChangedBy";
import { Tabs } from "~/components/Tabs";
import { changedByLabel } from "~/rules/delegation";
import { getItemAck } from "#device-service/ack";
import { AppInfo } from "~/components/apps/AppInfo";
import { AppUsage } from "~/components/apps/AppUsage";
import { limitDraft, limitIntent } from "~/components/apps/limit.server";
import { RatingModal, ratingSchema } from "~/components/apps/RatingModal";
import { FailureModal } from "~/components/store/FailureModal";
import { InstallStatus } from "~/components/store/InstallStatus";
import { INSTALLING_REFRESH_SECONDS } from "~/components/store/page.server";
import { chartForPage } from "~/components/charts/render.server";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { useHrefWith } from "~/components/dashboard/url";
import { ChevronIcon } from "~/components/dashboard/icons";
import appsStyles from "../styles/apps.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { useLiveRefresh } from "~/utils/live";
import { resolvePeriod } from "~/rules/periods";
import { redirectWithToast } from "~/utils/toast.server";
import { explainDevice } from "#device-service/explain";
import {
  bonusDraft,
  bonusIntent,
  bonusToday,
  savedWeekdays,
  sessionDraft,
  sessionIntent,
  weekdayDraft,
  weekdaysIntent,
} from "~/components/time-rules/forms.server";
import { explainDecision } from "~/rules/time-rules";
import { appTitle } from "#core/store";
import { AppIcon } from "~/components/AppIcon";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: appsStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.title ?? "App"} · Kids Portal` }];

/** Spec 2 §9: the rating popup opens 2.5 s after load with showRating=true. */
export const RATING_DELAY_MS = 2_500;
const STORE_FILTERS = ["playstoreText", "filterCategory", "ageFilter", "expertRatingFilter"] as const;

function ids(request: Request) {
  const url = new URL(request.url);
  return {
    url,
    profileId: url.searchParams.get("profile_id"),
    serialNumber: url.searchParams.get("serialNumber"),
    packageName: url.searchParams.get("package_name") ?? "",
  };
}

export async function loader(args: LoaderFunctionArgs) {
  const { url, profileId, serialNumber, packageName } = ids(args.request);
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const q = (k: string) => url.searchParams.get(k);
  const tab = q("tab") === "usage" ? ("usage" as const) : ("info" as const);
  const now = new Date();
  const period = tab === "usage" ? resolvePeriod({ filter: q("filter"), date: q("date"), week: q("week") }, now) : null;
  // Every read needs only the phone and the package: all go at once (one round trip of waiting on PostgreSQL,
  // not four); "who changed it" waits for the detail, which says whether the app is still there.
  const detailing = getAppDetail(db, device.id, packageName);
  const [detail, charted, install, explained, byDay, bonusGiven, session, actor, ratings] = await Promise.all([
    detailing,
    period ? Promise.all([getAppUsageChart(db, device.id, packageName, period), getItemAck(db, device.id, { app: packageName })]) : null,
    appInstallState(db, device.id, packageName),
    explainDevice(db, device.id, now),
    savedWeekdays(db, kid.id, "app", packageName),
    bonusToday(db, kid.id, "app", packageName, now),
    sessionDraft(db, url, kid.id, "app", packageName),
    // Who last changed it (issue 18): its limit, state or install; once uninstalled, who uninstalled it.
    detailing.then((d) => (d?.appExist ? appChangedBy(db, device.id, packageName) : uninstalledBy(db, device.id, packageName))),
    tab === "info" ? Promise.all([getKidRatings(db, packageName), getParentRatings(db, packageName)]) : null,
  ]);
  if (!detail) throw new Response("App not found.", { status: 404 });
  const title = appTitle(detail.catalog?.title, packageName);
  // Back: to the store with its filters when a serial number exists (it always does here), else the dashboard.
  const back = new URLSearchParams({ profileId: kid.id, serialNumber: device.serial_number });
  for (const k of STORE_FILTERS) if (q(k)) back.set(k, q(k)!);
  let usage = null;
  if (period && charted) {
    const [chart, ack] = charted;
    const chartTitle = `${title} screen time, ${period.filter === "day" ? `${period.label === "Today" ? "today" : period.label}, by hour` : `${period.label}, by day`}`;
    usage = {
      period,
      total: chart.total,
      chart: chart.chart,
      chartTitle,
      chartSvg: chartForPage(args.context, chart.chart, chartTitle),
      ack,
    };
  }
  const [kidRatings, parentRatings] = ratings ?? [null, null];
  const modal = q("modal") === "rating" ? ("rating" as const) : q("modal") === "failure" ? ("failure" as const) : null;
  const showRating = q("showRating") === "true" && modal === null;
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    packageName,
    title,
    tab,
    detail,
    kidRatings,
    parentRatings,
    usage,
    draft: limitDraft(url, { enabled: detail.enableDailyLimit, minutes: detail.dailyLimitTime }),
    // What the phone decides for this app now (issue 21): "25 minutes left today", "Blocked by Bedtime until 07:00".
    explanation: explainDecision(explained.decisions[packageName], explained.timeZone, now),
    weekdays: weekdayDraft(url, byDay, detail.dailyLimitTime),
    bonus: { draft: bonusDraft(url), given: bonusGiven },
    session,
    modal,
    install,
    changedBy: { by: changedByLabel(actor, parent.id), verb: detail.appExist ? "Changed" : "Uninstalled" },
    maxAttempts: args.context.services.env.INSTALL_RETRY_MAX_ATTEMPTS,
    // Without JavaScript the page refreshes itself while the app is on its way to the phone, and showRating=true
    // opens the rating popup by a refresh 2.5 s after load (spec 2 §9; with JavaScript the component does it).
    ...noJsRefresh(args.request, install, showRating),
    showRating,
    backHref: `/play-store?${back}`,
    now: new Date().toISOString(),
  });
}

/**
 * The page's meta refresh for a browser without JavaScript: showRating=true goes to the rating popup after the
 * spec's delay (a refresh counts whole seconds: 3, never sooner than 2.5); an app on its way to the phone reloads.
 */
function noJsRefresh(
  request: Request,
  install: Awaited<ReturnType<typeof appInstallState>>,
  showRating: boolean,
): { noJsRefreshSeconds: number; noJsRefreshTo?: string } {
  if (showRating) {
    return {
      noJsRefreshSeconds: Math.ceil(RATING_DELAY_MS / 1000),
      noJsRefreshTo: hrefWith(request, { modal: "rating", showRating: null }),
    };
  }
  const installing =
    install &&
    (install.installState === "installing" ||
      (install.retry && ["pending", "waiting_online", "waiting_storage", "sent"].includes(install.retry.status)));
  return { noJsRefreshSeconds: installing ? INSTALLING_REFRESH_SECONDS : 0 };
}

const Intent = z.enum(["limit", "enabled", "rating", "weekdays", "bonus", "session"]);

export async function action(args: ActionFunctionArgs) {
  const { profileId, serialNumber, packageName } = ids(args.request);
  const { parent, device } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const detail = await getAppDetail(db, device.id, packageName);
  if (!detail) throw new Response("App not found.", { status: 404 });
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const here = hrefWith(args.request, {});
  const sn = device.serial_number;
  switch (intent.data) {
    case "limit":
      return limitIntent(args.request, form, "app", detail.dailyLimitTime, (v, back) =>
        callDevice(args.context, parent, back, (d) =>
          d.apps.setLimit({ serialNumber: sn, packageName, enableDailyLimit: v.enabled, dailyLimitTime: v.minutes }),
        ),
      );
    case "weekdays":
      return weekdaysIntent(
        { request: args.request, context: args.context, parent, profileId: profileId!, scope: "app", target: packageName },
        form,
      );
    case "bonus":
      return bonusIntent(
        { request: args.request, context: args.context, parent, profileId: profileId!, scope: "app", target: packageName },
        form,
      );
    case "session":
      return sessionIntent(
        { request: args.request, context: args.context, parent, profileId: profileId!, scope: "app", target: packageName },
        form,
      );
    case "enabled":
      return callDevice(args.context, parent, here, (d) =>
        d.apps.setEnabled({ serialNumber: sn, packageName, enabled: form.get("enabled") === "on" }),
      );
    case "rating": {
      const parsed = ratingSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return redirectWithToast(here, { type: "error", message: "Please choose 0 to 5 stars for each question." });
      return callDevice(
        args.context,
        parent,
        here,
        (d) => d.apps.rate({ profileId: profileId!, packageName, ...parsed.data }),
        "Thank you.",
        hrefWith(args.request, { modal: null, showRating: null, tab: null }),
      );
    }
  }
}

export default function Application() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const to = useHrefWith();
  const navigate = useNavigate();
  useLiveRefresh(data.kid.id);
  // With JavaScript, showRating=true opens the popup 2.5 s after load; without it, the meta refresh does (noJsRefresh).
  useEffect(() => {
    if (!data.showRating || data.modal) return;
    const t = setTimeout(
      () => navigate(to({ modal: "rating", showRating: null }), { replace: true, preventScrollReset: true }),
      RATING_DELAY_MS,
    );
    return () => clearTimeout(t);
  }, [data.showRating, data.modal, navigate, to]);
  const failed = actionData && "error" in actionData ? actionData : null;
  const error = failed?.intent === "limit" ? failed.error : null;
  return (
    <div className="stack">
      <div className="page-head-wrap">
        <div className="row-between">
          <Link to={data.backHref} className="back-link" aria-label="Back to the store">
            <ChevronIcon dir="left" /> Back
          </Link>
          <Link to={`/kids-device?profileId=${data.kid.id}`} className="back-link">
            Back to Home
          </Link>
        </div>
        <div className="app-hero">
          <AppIcon packageName={data.packageName} title={data.title} icon={data.detail.catalog?.icon} size={56} />
          <div>
            <h1>{data.title}</h1>
            {data.detail.isAppInstalled ? (
              <p className="muted" data-testid="on-phone">
                On {data.kid.name}&apos;s phone
              </p>
            ) : null}
            <ChangedBy by={data.changedBy.by} verb={data.changedBy.verb} testId="app-changed-by" />
            {data.explanation ? (
              <p className={`badge ${data.explanation.tone === "blocked" ? "badge-red" : "badge-grey"}`} data-testid="time-explanation">
                {data.explanation.text}
              </p>
            ) : null}
          </div>
        </div>
        <Tabs
          label="App sections"
          replace
          items={[
            { label: "Info", to: to({ tab: null }), current: data.tab === "info" },
            { label: "Usage", to: to({ tab: "usage" }), current: data.tab === "usage" },
          ]}
        />
      </div>
      {data.install ? (
        <InstallStatus
          state={data.install.installState}
          reason={data.install.failureReason}
          retry={data.install.retry}
          maxAttempts={data.maxAttempts}
          whyHref={to({ modal: "failure" })}
        />
      ) : null}
      {data.tab === "info" ? <AppInfo data={data} /> : <AppUsage data={data} error={error} failed={failed} />}
      {data.modal === "failure" && data.install?.failureReason ? (
        <FailureModal
          appTitle={data.title}
          reason={data.install.failureReason}
          retry={data.install.retry}
          maxAttempts={data.maxAttempts}
          closeHref={to({ modal: null })}
        />
      ) : null}
      {data.modal === "rating" ? <RatingModal title={data.title} closeHref={to({ modal: null, showRating: null })} /> : null}
    </div>
  );
}

export type AppPageData = ReturnType<typeof useLoaderData<typeof loader>>;
