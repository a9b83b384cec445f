import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { REQUESTS_PAGE_SIZE } from "#core/limits";
import { recordId } from "#core/values";
import { extendStopOf, listPendingRequests, requestOnDevice } from "#db/queries/requests";
import { hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { PageNav } from "~/components/logs/PageNav";
import { ExtendModal } from "~/components/requests/popups/ExtendModal";
import { UninstallConfirmModal } from "~/components/requests/popups/UninstallConfirmModal";
import { RequestList } from "~/components/requests/RequestList";
import { approveExtend, approveInstall, approveUninstall, closedHref, reject } from "~/components/requests/requests.server";
import { InstallModal } from "~/components/store/InstallModal";
import { installDraft } from "~/components/store/install.server";
import { extendTotals, extendWarning, noLimitExtendNote, requestButton, requestTypeLabel } from "~/rules/requests";
import appsStyles from "../styles/apps.css?url";
import dashboardStyles from "../styles/dashboard.css?url";
import { useLiveRefresh } from "~/utils/live";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: appsStyles },
];
export const meta: MetaFunction = () => [{ title: "Requests · Kids Portal" }];

/** `?page=N` of the pending requests; anything else is the first page. */
function pageParam(raw: string | null): number {
  return /^\d{1,3}$/.test(raw ?? "") && Number(raw) >= 1 ? Number(raw) : 1;
}

function ids(request: Request) {
  const url = new URL(request.url);
  return { url, profileId: url.searchParams.get("profileId"), serialNumber: url.searchParams.get("serialNumber") };
}

/**
 * Spec 2 §2 /requests: Pending requests of the kid's phone; popups (?modal=install|extend&id=…) and the uninstall's
 * "are you sure?" (?confirm=uninstall&id=…) live in the URL.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { url, profileId, serialNumber } = ids(args.request);
  const { device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const pending = await listPendingRequests(db, device.id, new Date(), kid.id);
  const q = (k: string) => url.searchParams.get(k);
  // REQUESTS_PAGE_SIZE a page (`?page=N`); a page past the end (its last request answered) shows the last one.
  const lastPage = Math.max(1, Math.ceil(pending.length / REQUESTS_PAGE_SIZE));
  const page = Math.min(lastPage, pageParam(q("page")));
  const onPage = (p: number) =>
    `${hrefWith(args.request, { page: p === 1 ? null : String(p), modal: null, id: null, category: null })}#requests-title`;
  const list = pending.slice((page - 1) * REQUESTS_PAGE_SIZE, page * REQUESTS_PAGE_SIZE).map((r) => {
    const button = requestButton(r.requestType, r.paid);
    const view = { category: null, limitOn: null, limit: null };
    return {
      id: r.id,
      packageName: r.packageName,
      title: r.title ?? r.packageName,
      icon: r.icon,
      remarks: r.remarks,
      label: requestTypeLabel(r.requestType, r.extendedTime),
      createdAt: r.createdAt,
      button,
      openHref: button.modal
        ? hrefWith(args.request, { modal: button.modal, id: r.id, confirm: null, ...view })
        : button.confirm
          ? hrefWith(args.request, { confirm: button.confirm, id: r.id, modal: null, ...view })
          : null,
    };
  });
  // A popup whose request was answered meanwhile (here or elsewhere) is simply not shown.
  const open = pending.find((r) => r.id === q("id") && requestButton(r.requestType, r.paid).modal === q("modal"));
  const modal = open ? { kind: requestButton(open.requestType, open.paid).modal!, id: open.id } : null;
  const confirming = q("confirm") === "uninstall" ? pending.find((r) => r.id === q("id") && r.requestType === "App Uninstall") : undefined;
  // Extra time that would change nothing (the app or its category turned off, the category's limit used up) is
  // said when the popup opens, and again when Approve is pressed anyway (spec 2 §4 redirectToCategory).
  let warning: { text: string; link: string; href: string } | null = null;
  if (open?.requestType === "Extend Time") {
    const stopped = await extendStopOf(db, { deviceId: device.id, profileId: kid.id, packageName: open.packageName });
    if (stopped?.stop) {
      const category = stopped.category;
      const categoryName =
        category === "Others"
          ? "Others"
          : ((await db.selectFrom("store_categories").select("name").where("id", "=", category).executeTakeFirst())?.name ?? category);
      const ids = { profileId: kid.id, serialNumber: device.serial_number };
      warning = {
        ...extendWarning(stopped.stop, { appTitle: open.title ?? open.packageName, kidName: kid.name, categoryName }),
        href:
          stopped.stop === "app-disabled"
            ? `/application?${new URLSearchParams({ package_name: open.packageName, profile_id: ids.profileId, serialNumber: ids.serialNumber, tab: "usage" })}`
            : `/category?${new URLSearchParams({ id: category, ...ids, appRequestPage: "true" })}`,
      };
    }
  }
  const extend =
    open?.requestType === "Extend Time"
      ? extendTotals({ standing: open.dailyLimitTime, extraToday: open.extraToday, extra: open.extendedTime })
      : null;
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    list,
    page,
    newerHref: page > 1 ? onPage(page - 1) : null,
    olderHref: page < lastPage ? onPage(page + 1) : null,
    modal,
    title: open ? (open.title ?? open.packageName) : "",
    draft: installDraft(url),
    extend,
    // Said only when nothing stops the app (the warning says what does).
    noLimitNote: extend && extend.current === null && open && !warning ? noLimitExtendNote(open.title ?? open.packageName, kid.name) : null,
    warning,
    confirm: confirming ? { id: confirming.id, title: confirming.title ?? confirming.packageName, remarks: confirming.remarks } : null,
    closeHref: closedHref(args.request),
  });
}

const Intent = z.enum(["install", "uninstall", "extend", "reject"]);

export async function action(args: ActionFunctionArgs) {
  const { profileId, serialNumber } = ids(args.request);
  const { parent, device } = await requireKidDevice(args, profileId, serialNumber);
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  const id = recordId.safeParse(form.get("id"));
  if (!intent.success || !id.success) throw new Response("Unknown action.", { status: 400 });
  // Another phone's (or family's) request id reveals nothing; an answered one is the service's 'already answered'.
  if (!(await requestOnDevice(args.context.services.db, device.id, id.data))) throw new Response("Request not found.", { status: 404 });
  const a = { request: args.request, context: args.context, parent, serialNumber: device.serial_number, id: id.data };
  switch (intent.data) {
    case "install":
      return approveInstall(a, form);
    case "uninstall":
      // An unconfirmed uninstall (an old form, a replayed post) is asked about, never done.
      if (form.get("confirmed") !== "yes") return redirect(hrefWith(args.request, { confirm: "uninstall", id: id.data, modal: null }));
      return approveUninstall(a);
    case "extend": {
      const minutes = z.coerce.number().int().min(1).max(1440).safeParse(form.get("extendLimit"));
      return approveExtend(a, minutes.success ? minutes.data : undefined);
    }
    case "reject":
      return reject(a);
  }
}

export default function Requests() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useLiveRefresh(data.kid.id);
  const error = actionData && typeof actionData === "object" && "error" in actionData ? String(actionData.error) : null;
  return (
    <div className="stack">
      <PageHead title="Requests" kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card stack" aria-labelledby="requests-title">
        <h2 id="requests-title">Pending requests</h2>
        <RequestList items={data.list} />
        <PageNav page={data.page} newerHref={data.newerHref} olderHref={data.olderHref} label="Request pages" newer="Newer" older="Older" />
      </section>
      {data.modal?.kind === "install" ? (
        <InstallModal
          appTitle={data.title}
          closeHref={data.closeHref}
          draft={data.draft}
          hidden={{ intent: "install", id: data.modal.id }}
          error={error}
        />
      ) : null}
      {data.modal?.kind === "extend" && data.extend ? (
        <ExtendModal
          view={{ id: data.modal.id, title: data.title, ...data.extend }}
          note={data.noLimitNote}
          warning={data.warning}
          closeHref={data.closeHref}
        />
      ) : null}
      {data.confirm ? <UninstallConfirmModal request={data.confirm} kidName={data.kid.name} closeHref={data.closeHref} /> : null}
    </div>
  );
}
