import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { getCategoryDetail } from "#db/queries/categories";
import { categoryChangedBy } from "#db/queries/parent-profile";
import { ChangedBy } from "~/components/ChangedBy";
import { changedByLabel } from "~/rules/delegation";
import { getItemAck } from "#device-service/ack";
import { DeliveryBadge, EnabledSwitch, LimitForm } from "~/components/apps/LimitForm";
import { limitDraft, limitIntent } from "~/components/apps/limit.server";
import { PeriodNav } from "~/components/apps/PeriodNav";
import { CategoryApps } from "~/components/category/CategoryApps";
import { CategoryChartFigure } from "~/components/charts/CategoryBarChart";
import { seriesLook, swatchBackground } from "#core/chart-colours";
import { chartForPage } from "~/components/charts/render.server";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import appsStyles from "../styles/apps.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { formatMinutes, limitProgress } from "~/rules/minutes";
import { useLiveRefresh } from "~/utils/live";
import { resolvePeriod } from "~/rules/periods";
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
import { BonusTime, SessionLimit, WeekdayLimits } from "~/components/time-rules/TimeControls";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: appsStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.category.name ?? "Category"} · Kids Portal` }];

function ids(request: Request) {
  const url = new URL(request.url);
  return {
    url,
    profileId: url.searchParams.get("profileId"),
    serialNumber: url.searchParams.get("serialNumber"),
    id: url.searchParams.get("id") ?? "",
  };
}

export async function loader(args: LoaderFunctionArgs) {
  const { url, profileId, serialNumber, id } = ids(args.request);
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const q = (k: string) => url.searchParams.get(k);
  const period = resolvePeriod({ filter: q("filter"), date: q("date"), week: q("week") }, new Date());
  const [category, ack, byDay, bonusGiven, session, actor] = await Promise.all([
    getCategoryDetail(db, kid.id, device.id, id, period),
    getItemAck(db, device.id, { category: id }),
    savedWeekdays(db, kid.id, "category", id),
    bonusToday(db, kid.id, "category", id),
    sessionDraft(db, url, kid.id, "category", id),
    categoryChangedBy(db, kid.id, id),
  ]);
  if (!category) throw new Response("Category not found.", { status: 404 });
  const chartTitle = `${category.name} screen time by app, ${period.filter === "day" ? `${period.label === "Today" ? "today" : period.label}, by hour` : `${period.label}, by day`}`;
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    period,
    ack,
    changedBy: changedByLabel(actor, parent.id),
    category: {
      ...category,
      chart: category.chart,
      apps: category.apps.map((a) => ({
        ...a,
        progress: limitProgress(a.timeInMinute, a.enableDailyLimit ? a.dailyLimit * period.days : 0),
      })),
    },
    chartTitle,
    chartSvg: chartForPage(args.context, category.chart, chartTitle),
    draft: limitDraft(url, { enabled: category.enableDailyLimit, minutes: category.dailyLimitTime }),
    weekdays: weekdayDraft(url, byDay, category.dailyLimitTime),
    bonus: { draft: bonusDraft(url), given: bonusGiven },
    session,
  });
}

const Intent = z.enum(["limit", "enabled", "weekdays", "bonus", "session"]);

export async function action(args: ActionFunctionArgs) {
  const { url, profileId, serialNumber, id } = ids(args.request);
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const current = await getCategoryDetail(db, kid.id, device.id, id, resolvePeriod({}, new Date()));
  if (!current) throw new Response("Category not found.", { status: 404 });
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const sn = device.serial_number;
  // Spec 2 §2: after a save from the requests page, back to it.
  const done = (back: string) =>
    url.searchParams.get("appRequestPage") === "true" ? `/requests?${new URLSearchParams({ profileId: kid.id, serialNumber: sn })}` : back;
  const time = { request: args.request, context: args.context, parent, profileId: kid.id, scope: "category" as const, target: id };
  if (intent.data === "weekdays") return weekdaysIntent(time, form);
  if (intent.data === "bonus") return bonusIntent(time, form);
  if (intent.data === "session") return sessionIntent(time, form);
  if (intent.data === "enabled") {
    const here = hrefWith(args.request, {});
    const on = form.get("enabled") === "on";
    return callDevice(
      args.context,
      parent,
      here,
      (d) =>
        d.categories.update({
          serialNumber: sn,
          category: id,
          enableDailyLimit: current.enableDailyLimit,
          dailyLimitTime: current.dailyLimitTime,
          isCategoryEnabled: on,
        }),
      "Saved.",
      done(here),
    );
  }
  return limitIntent(args.request, form, "category", current.dailyLimitTime, (v, back) =>
    callDevice(
      args.context,
      parent,
      back,
      (d) =>
        d.categories.update({
          serialNumber: sn,
          category: id,
          enableDailyLimit: v.enabled,
          dailyLimitTime: v.minutes,
          isCategoryEnabled: current.isCategoryEnabled,
        }),
      "Saved.",
      done(back),
    ),
  );
}

export default function Category() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useLiveRefresh(data.kid.id);
  const c = data.category;
  const failed = actionData && "error" in actionData ? actionData : null;
  const progress = limitProgress(c.usedToday, c.enableDailyLimit ? c.dailyLimitTime : 0);
  return (
    <div className="stack">
      <PageHead title={c.name} kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card settings-section" aria-labelledby="limit-title">
        <h2 id="limit-title">Category limit</h2>
        <EnabledSwitch enabled={c.isCategoryEnabled} label={c.isCategoryEnabled ? "Enabled" : "Disabled"} />
        <ChangedBy by={data.changedBy} testId="category-changed-by" />
        <p className="muted small">
          Today: {formatMinutes(c.usedToday)}
          {c.enableDailyLimit && c.dailyLimitTime > 0 ? ` of ${formatMinutes(c.dailyLimitTime)}` : ""}
        </p>
        {c.enableDailyLimit && c.dailyLimitTime > 0 ? (
          <span
            className={`progress${progress.over ? " over" : ""}`}
            role="progressbar"
            aria-label="Category limit used"
            aria-valuenow={progress.percent}
            aria-valuemin={0}
            aria-valuemax={100}
            data-over={progress.over}
          >
            <span style={{ width: `${progress.percent}%` }} />
          </span>
        ) : null}
        <LimitForm
          kind="category"
          draft={data.draft}
          stored={c.dailyLimitTime}
          error={failed?.intent === "limit" ? failed.error : null}
          label="Category daily limit"
        />
        {c.enableDailyLimit ? (
          <WeekdayLimits
            draft={data.weekdays}
            error={failed?.intent === "weekdays" && "day" in failed ? { message: failed.error, day: failed.day } : null}
            what="Category daily limit"
          />
        ) : null}
        <DeliveryBadge state={data.ack} kidName={data.kid.name} />
        {c.enableDailyLimit ? (
          <BonusTime
            draft={data.bonus.draft}
            givenToday={data.bonus.given}
            error={failed?.intent === "bonus" ? failed.error : null}
            what={c.name}
          />
        ) : null}
        <SessionLimit
          draft={data.session}
          error={failed?.intent === "session" && "field" in failed ? { message: failed.error, field: failed.field } : null}
          what={c.name}
        />
      </section>
      <section className="card" aria-labelledby="usage-title">
        <h2 id="usage-title">Usage</h2>
        <PeriodNav period={data.period} />
        <p className="total-time">
          {/* The category's colour on the dashboard's charts and the reports. */}
          <span
            className="swatch"
            style={{ background: swatchBackground(seriesLook(c.category)) }}
            data-key={c.category}
            aria-hidden="true"
          />{" "}
          <span className="muted">Screen time</span> <strong data-testid="total-time">{formatMinutes(c.usedTime)}</strong>
        </p>
        <CategoryChartFigure svg={data.chartSvg} data={c.chart} title={data.chartTitle} period={data.period} />
      </section>
      <CategoryApps apps={c.apps} profileId={data.kid.id} serialNumber={data.serialNumber} />
      <p>
        <Link to={`/kids-device?profileId=${data.kid.id}`}>Back</Link>
      </p>
    </div>
  );
}
