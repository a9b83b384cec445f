import { parseWithZod } from "@conform-to/zod";
import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TRPCError } from "@trpc/server";
import QRCode from "qrcode";
import { z } from "zod";
import { canAccessKid } from "#db/queries/access";
import { listKidsForParent } from "#db/queries/kids";
import { perRequest } from "~/utils/request-memo.server";
import { countUnreadNotifications, listNotifications, markNotificationsRead } from "#db/queries/dashboard/notifications";
import { getKidOverview } from "#db/queries/dashboard/overview";
import { listPendingRatings, markRatingsShown } from "#db/queries/dashboard/ratings";
import { getUsage } from "#db/queries/dashboard/usage";
import { listDashboardInstalls } from "#db/queries/store/installed";
import { getAckState, latestAndApplied } from "#device-service/ack";
import { publicMessage } from "#device-service/errors";
import { sleepModeChangedBy } from "#db/queries/parent-profile";
import { chartForPage } from "~/components/charts/render.server";
import { DashboardView } from "~/components/dashboard/Dashboard";
import { NoDevices } from "~/components/dashboard/NoDevices";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { editKidSchema } from "~/components/dashboard/schemas";
import { addKid } from "~/components/dashboard/add-kid.server";
import dashboardStyles from "../styles/dashboard.css?url";
import { requireKidAccess, requireParent } from "~/utils/auth.server";
import { KIDS_PAGE_SIZE, defaultKidId } from "~/rules/kids";
import { limitProgress } from "~/rules/minutes";
import { NOTIFICATIONS_PAGE } from "~/rules/notifications";
import { resolvePeriod } from "~/rules/periods";
import { PICTURE_TOO_LARGE, pictureSizeError } from "~/rules/picture";
import { reencodePicture } from "#device-service/pictures.server";
import { droppedFiles } from "~/utils/request-limits.server";
import { kidAge, screenTimeRecommendation } from "~/rules/recommendation";
import { NO_JS_REFRESH_SECONDS } from "~/rules/status";
import { listPaging, visibleCount } from "~/rules/usage";
import { redirectWithToast } from "~/utils/toast.server";
import { explainDevice } from "#device-service/explain";
import { readPolicyPrivateDnsView } from "#device-service/private-dns";
import { bonusDraft, bonusIntent, bonusToday } from "~/components/time-rules/forms.server";
import { explainDecision } from "~/rules/time-rules";
import { changedByLabel } from "~/rules/delegation";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Kids Devices · Kids Portal" }];

const MODALS = [
  "sleep",
  "protection",
  "recommendation",
  "edit",
  "permissions",
  "notifications",
  "enroll",
  "switch",
  "add-kid",
  "replace-phone",
  "remove-kid",
  "bonus",
] as const;
export type DashboardModal = (typeof MODALS)[number];

export async function loader(args: LoaderFunctionArgs) {
  const { parent } = await requireParent(args);
  const db = args.context.services.db;
  const url = new URL(args.request.url);
  const q = (k: string) => url.searchParams.get(k);
  const requested = q("profileId");
  const kids = await perRequest(args, "kids", () => listKidsForParent(db, parent, { pageSize: KIDS_PAGE_SIZE }));
  // The switcher's list is the parent's accessible kids; beyond its first page, ask the access rule itself.
  if (requested && !kids.some((k) => k.id === requested) && !(await canAccessKid(db, parent, requested))) {
    throw new Response("Kid not found.", { status: 404 });
  }
  const currentId = requested ?? defaultKidId(kids);
  const overview = currentId ? await getKidOverview(db, currentId) : null;
  const modalParam = q("modal");
  const modal = (MODALS as readonly string[]).includes(modalParam ?? "") ? (modalParam as DashboardModal) : null;
  const parentView = { useDefaultPassword: Boolean(parent.use_default_password), hideGoogle: Boolean(parent.hide_google) };

  if (!overview?.device) {
    return json({
      state: "no-devices" as const,
      parent: parentView,
      kids,
      kid: overview ? { id: overview.profile.id, name: overview.profile.name } : null,
      modal,
    });
  }

  const { profile, device } = overview;
  const now = new Date();
  const period = resolvePeriod({ filter: q("filter"), date: q("date"), week: q("week") }, now);
  const tab = q("tab") === "info" ? ("info" as const) : ("usage" as const);
  const appsCount = visibleCount(q("apps"));
  const catsCount = visibleCount(q("cats"));
  if (modal === "notifications") await markNotificationsRead(db, profile.id, now);
  const notificationPages = Math.max(1, Math.min(50, Number.parseInt(q("npage") ?? "1", 10) || 1));
  // The newest policies are read once, for the acknowledgement state and the explanations; the family's time zone
  // came with the kid (one statement fewer each).
  const policies = latestAndApplied(db, device.id);
  const webFilter = args.context.services.webFilter;
  const [usage, ack, unread, pendingRatings, notifications, sleepActor, installs, explained, bonusGiven, privateDns] = await Promise.all([
    tab === "usage" ? getUsage(db, profile.id, device.id, period) : null,
    getAckState(db, device.id, policies),
    countUnreadNotifications(db, profile.id),
    listPendingRatings(db, device.id, 6),
    modal === "notifications" ? listNotifications(db, profile.id, notificationPages * NOTIFICATIONS_PAGE) : null,
    sleepModeChangedBy(db, profile.id),
    listDashboardInstalls(db, device.id, { iconBase: args.context.services.env.CATALOG_ICON_BASE_URL }),
    tab === "usage"
      ? explainDevice(
          db,
          device.id,
          now,
          policies.then((p) => p.latest),
        )
      : null,
    bonusToday(db, profile.id, "phone", "", now, overview.timeZone),
    // The phone's Private DNS against the filter hostname its policy names: the warning when it is not (issue 54 item 4).
    readPolicyPrivateDnsView(
      db,
      device.id,
      policies.then((p) => p.latest),
      Boolean(webFilter),
    ),
  ]);
  // The page cache keeps this page only until the phone's next time-driven change (a schedule starting or
  // ending, a break ending, the kid's midnight): the explanations below would be stale after it.
  if (explained?.validUntil) args.context.pageCacheUntil?.(explained.validUntil);
  const age = kidAge(profile.birthMonth, profile.birthYear, now);
  const apps = usage?.apps ?? [];
  const categories = usage?.categories ?? [];
  const chartTitle = `${profile.name}'s screen time by category, ${period.filter === "day" ? `${period.label === "Today" ? "today" : period.label}, by hour` : `${period.label}, by day`}`;
  return json({
    state: "dashboard" as const,
    parent: parentView,
    // Without JavaScript the page reloads itself while the phone has not confirmed (root.tsx) or an app is
    // installing, then stops. Not while a popup is open: a reload would drop what the parent is typing.
    noJsRefreshSeconds:
      modal || (ack.sleepModeAcknowledged && ack.protectionAcknowledged && !installs.some((i) => i.state === "installing"))
        ? null
        : NO_JS_REFRESH_SECONDS,
    // …back at the controls while they wait for the phone (the parent changed them there); installs alone keep the top.
    noJsRefreshAt: ack.sleepModeAcknowledged && ack.protectionAcknowledged ? null : "controls",
    kids,
    kid: { id: profile.id, name: profile.name },
    modal,
    profile,
    device,
    age,
    recommendation: screenTimeRecommendation(age),
    sleepModeBy: changedByLabel(sleepActor, parent.id),
    tab,
    period,
    ack: {
      sleepModeAcknowledged: ack.sleepModeAcknowledged,
      protectionAcknowledged: ack.protectionAcknowledged,
      pendingPolicyVersion: ack.pendingPolicyVersion,
      appliedPolicyVersion: ack.appliedPolicyVersion,
    },
    unread,
    privateDns,
    bonus: { given: bonusGiven, draft: bonusDraft(url) },
    pendingRatings,
    installs: installs.map(({ actor, ...i }) => ({ ...i, changedBy: changedByLabel(actor, parent.id) })),
    notifications: notifications ? { items: notifications.items, total: notifications.total, pages: notificationPages } : null,
    usage: usage
      ? {
          totalUsedTime: usage.totalUsedTime,
          chart: usage.chart,
          chartTitle,
          chartSvg: chartForPage(args.context, usage.chart, chartTitle),
          lastUsageAt: usage.lastUsageAt,
          apps: apps.slice(0, appsCount).map((a) => ({
            ...a,
            progress: limitProgress(a.timeInMinute, a.enableDailyLimit ? a.dailyLimit * period.days : 0),
            explanation: explained ? explainDecision(explained.decisions[a.packageName], explained.timeZone, now) : null,
          })),
          categories: categories.slice(0, catsCount).map((c) => ({
            ...c,
            progress: limitProgress(c.usedTime, c.enableDailyLimit ? c.dailyLimitTime * period.days : 0),
          })),
          appsPaging: { count: appsCount, total: apps.length, ...listPaging(appsCount, apps.length) },
          catsPaging: { count: catsCount, total: categories.length, ...listPaging(catsCount, categories.length) },
        }
      : null,
    currentYear: now.getUTCFullYear(),
  });
}

const intentSchema = z.enum([
  "sleep",
  "protection",
  "map-display",
  "edit-kid",
  "rating-shown",
  "enroll",
  "add-kid",
  "replace-phone",
  "remove-kid",
  "bonus",
]);

export async function action(args: ActionFunctionArgs) {
  const { parent } = await requireParent(args);
  const { request, context } = args;
  const db = context.services.db;
  const formData = await request.formData();
  const intent = intentSchema.safeParse(formData.get("intent"));
  // A new kid belongs to the signed-in parent; no existing id is involved.
  if (intent.success && intent.data === "add-kid") return addKid(db, parent, formData, context.services.webFilter);
  const profileId = String(formData.get("profileId") ?? "");
  await requireKidAccess(args, profileId);
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const overview = await getKidOverview(db, profileId);
  const device = overview?.device;
  const back = hrefWith(request, { modal: null });

  switch (intent.data) {
    case "sleep": {
      if (!device) throw new Response("Kid not found.", { status: 404 });
      const sleepMode = formData.get("sleepMode") === "on";
      return callDevice(context, parent, `${back}#controls`, (d) => d.kids.setSleepMode({ profileId, sleepMode }));
    }
    case "protection": {
      if (!device) throw new Response("Kid not found.", { status: 404 });
      const status = formData.get("protection");
      if (status !== "locked" && status !== "unlocked")
        return redirectWithToast(hrefWith(request, {}), { type: "error", message: "Please choose locked or unlocked." });
      return callDevice(context, parent, `${back}#controls`, (d) =>
        d.kids.setProtection({ profileId, serialNumber: device.serialNumber, kidsAppProtectionStatus: status === "locked" }),
      );
    }
    case "map-display": {
      if (!device) throw new Response("Kid not found.", { status: 404 });
      const enableLocationMapDisplay = formData.get("enableLocationMapDisplay") === "on";
      return callDevice(context, parent, `${back}#location`, (d) =>
        d.device.updateDevice({ serialNumber: device.serialNumber, enableLocationMapDisplay }),
      );
    }
    case "replace-phone": {
      if (!device) throw new Response("Kid not found.", { status: 404 });
      const next = `/kids-device?${new URLSearchParams({ profileId, modal: "enroll" })}`;
      return callDevice(
        context,
        parent,
        back,
        (d) => d.enrollment.replacePhone({ profileId, serialNumber: device.serialNumber }),
        undefined,
        next,
      );
    }
    case "remove-kid": {
      return callDevice(context, parent, back, (d) => d.kids.remove({ profileId }), undefined, "/kids-device");
    }
    case "bonus": {
      if (!device) throw new Response("Kid not found.", { status: 404 });
      return bonusIntent({ request, context, parent, profileId, scope: "phone", target: "" }, formData);
    }
    case "rating-shown": {
      if (device) await markRatingsShown(db, device.id);
      return redirectWithToast(back, { type: "info", message: "Thanks. You can rate any app later from its page." });
    }
    case "enroll": {
      try {
        const created = await context.services
          .device({ id: parent.id, email: parent.email, role: parent.role })
          .enrollment.createToken({ profileId });
        const svg = await QRCode.toString(created.enrollUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
        return json({ intent: "enroll" as const, svg, expiresAt: created.expiresAt, enrollUrl: created.enrollUrl });
      } catch (err) {
        const message = err instanceof TRPCError ? publicMessage(err) : "Something went wrong. Please try again.";
        return redirectWithToast(hrefWith(request, {}), { type: "error", message });
      }
    }
    case "edit-kid": {
      if (!overview) throw new Response("Kid not found.", { status: 404 });
      // The picture (issue 52): one over 20 MB was dropped before this action (the rest of the form is here); any
      // other is re-encoded here (JPEG, 512 px, no metadata), so the device service is handed a small one.
      const file = formData.get("picture");
      let picture: { mime: string; base64: string } | null = null;
      let pictureError: string | null = null;
      if (!parent.hide_google) {
        if (droppedFiles(request).includes("picture")) pictureError = PICTURE_TOO_LARGE;
        else if (file instanceof File && file.size > 0) {
          pictureError = pictureSizeError(file.size);
          if (!pictureError) {
            const reencoded = await reencodePicture(new Uint8Array(await file.arrayBuffer()));
            if (reencoded.ok) picture = { mime: reencoded.mime, base64: reencoded.bytes.toString("base64") };
            else pictureError = reencoded.message;
          }
        }
      }
      formData.delete("picture");
      const submission = parseWithZod(formData, {
        schema: editKidSchema(new Date().getUTCFullYear()).superRefine((_v, ctx) => {
          if (pictureError) ctx.addIssue({ code: "custom", path: ["picture"], message: pictureError });
        }),
      });
      if (submission.status !== "success") {
        return json({ intent: "edit-kid" as const, result: submission.reply() }, { status: 400 });
      }
      const v = submission.value;
      return callDevice(context, parent, back, (d) =>
        d.kids.updateProfile({
          profileId,
          kidName: v.kidName,
          birthMonth: v.birthMonth,
          birthYear: v.birthYear,
          ...(picture ? { picture } : {}),
        }),
      );
    }
  }
}

export default function KidsDevice() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  if (data.state === "no-devices") return <NoDevices data={data} actionData={actionData} />;
  return <DashboardView data={data} actionData={actionData} />;
}
