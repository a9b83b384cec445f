import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { packageName as pkg } from "#core/values";
import { STORE_DETAIL_UNAVAILABLE } from "#device-service/store";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { useHrefWith } from "~/components/dashboard/url";
import { ChevronIcon } from "~/components/dashboard/icons";
import { Tabs } from "~/components/Tabs";
import { AgeModal, CategoryModal, ExpertModal } from "~/components/store/FilterModals";
import { FailureModal } from "~/components/store/FailureModal";
import { InstallModal } from "~/components/store/InstallModal";
import { installDraft, installIntent } from "~/components/store/install.server";
import { storePage } from "~/components/store/page.server";
import { ResultsMoreLess, StoreList } from "~/components/store/StoreList";
import { SEARCH_TEXT_MAX } from "~/rules/store";
import { useLiveRefresh } from "~/utils/live";
import { redirectWithToast } from "~/utils/toast.server";
import dashboardStyles from "../styles/dashboard.css?url";
import appsStyles from "../styles/apps.css?url";
import storeStyles from "../styles/store.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: appsStyles },
  { rel: "stylesheet", href: storeStyles },
];
export const meta: MetaFunction = () => [{ title: "Play Store · Kids Portal" }];

function ids(request: Request) {
  const url = new URL(request.url);
  return { url, profileId: url.searchParams.get("profileId"), serialNumber: url.searchParams.get("serialNumber") };
}

export async function loader(args: LoaderFunctionArgs) {
  const { url, profileId, serialNumber } = ids(args.request);
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const { db, env } = args.context.services;
  const page = await storePage(db, url, device, kid, parent.id, { iconBase: env.CATALOG_ICON_BASE_URL });
  let install = null;
  if (page.modal === "install" && page.appId) {
    const listing = pkg.safeParse(page.appId).success
      ? await db.selectFrom("catalog_apps").select(["title"]).where("package_name", "=", page.appId).executeTakeFirst()
      : undefined;
    if (!listing)
      return redirectWithToast(hrefWith(args.request, { modal: null, appId: null }), { type: "error", message: STORE_DETAIL_UNAVAILABLE });
    install = { title: listing.title, draft: installDraft(url) };
  }
  return json({ ...page, install, maxAttempts: env.INSTALL_RETRY_MAX_ATTEMPTS });
}

const Intent = z.enum(["install", "uninstall"]);

export async function action(args: ActionFunctionArgs) {
  const { profileId, serialNumber } = ids(args.request);
  const { parent, device } = await requireKidDevice(args, profileId, serialNumber);
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  const packageName = pkg.safeParse(form.get("packageName"));
  if (!intent.success || !packageName.success) throw new Response("Unknown action.", { status: 400 });
  const sn = device.serial_number;
  const here = hrefWith(args.request, { modal: null, appId: null, limitOn: null, limit: null });
  if (intent.data === "uninstall")
    return callDevice(args.context, parent, here, (d) => d.store.uninstall({ serialNumber: sn, packageName: packageName.data }));
  return installIntent(args.request, form, (v, back) =>
    callDevice(
      args.context,
      parent,
      back,
      (d) => d.store.install({ serialNumber: sn, packageName: packageName.data, enableDailyLimit: v.enabled, dailyLimitTime: v.minutes }),
      "Installing.",
      hrefWith(args.request, { modal: null, appId: null, limitOn: null, limit: null, tab: "installed" }),
    ),
  );
}

export default function PlayStore() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const to = useHrefWith();
  useLiveRefresh(data.kid.id);
  const kidQs = `profileId=${data.kid.id}&serialNumber=${encodeURIComponent(data.phone.serialNumber)}`;
  const filterQs = new URLSearchParams(data.filters).toString();
  const appHref = (appId: string) =>
    `/application?package_name=${encodeURIComponent(appId)}&profile_id=${data.kid.id}&serialNumber=${encodeURIComponent(data.phone.serialNumber)}${filterQs ? `&${filterQs}` : ""}`;
  const phoneName = [data.phone.brand, data.phone.model].filter(Boolean).join(" ") || "Phone";
  const failing = data.modal === "failure" ? data.items.find((i) => i.appId === data.appId) : undefined;
  const error = actionData && "error" in actionData ? actionData.error : null;
  return (
    <div className="stack">
      <div className="page-head-wrap">
        <Link to={`/kids-device?profileId=${data.kid.id}`} className="back-link">
          <ChevronIcon dir="left" /> Back to Home
        </Link>
        <h1>Play Store</h1>
        <p className="muted" data-testid="store-header">
          {data.kid.name} · {phoneName}
        </p>
        <Tabs
          label="Store sections"
          replace
          items={[
            { label: "Installed", to: to({ tab: "installed", modal: null }), current: data.tab === "installed" },
            { label: "Search Result", to: to({ tab: "search", modal: null }), current: data.tab === "search" },
          ]}
        />
      </div>
      <section className="card stack" aria-label="Search the store">
        <Form method="get" role="search" className="store-search">
          <input type="hidden" name="profileId" value={data.kid.id} />
          <input type="hidden" name="serialNumber" value={data.phone.serialNumber} />
          <input type="hidden" name="tab" value="search" />
          <label htmlFor="playstoreText" className="sr-only">
            Search apps
          </label>
          <input
            id="playstoreText"
            name="playstoreText"
            type="search"
            placeholder="Search apps"
            maxLength={SEARCH_TEXT_MAX}
            defaultValue={data.filter.kind === "text" ? data.filter.text : ""}
            key={data.filter.kind === "text" ? data.filter.text : ""}
            enterKeyHint="search"
          />
          <button type="submit" className="btn btn-small">
            Search
          </button>
        </Form>
        <div className="store-filters">
          <Link to={to({ modal: "age" })} className="btn btn-small btn-outline" preventScrollReset>
            Age group
          </Link>
          <Link to={to({ modal: "category" })} className="btn btn-small btn-outline" preventScrollReset>
            Category
          </Link>
          <Link to={to({ modal: "expert" })} className="btn btn-small btn-outline" preventScrollReset>
            Expert rating
          </Link>
        </div>
        {data.tab === "search" && data.label ? (
          <p className="store-label" data-testid="result-label">
            {data.label}{" "}
            <Link to={`/play-store?${kidQs}&tab=search`} className="muted">
              Clear
            </Link>
          </p>
        ) : null}
      </section>
      <section className="card">
        {data.items.length === 0 ? (
          <p>No data found.</p>
        ) : (
          <StoreList
            items={data.items}
            to={to}
            appHref={appHref}
            kidsAppPackage={data.kidsAppPackage}
            maxAttempts={data.maxAttempts}
            label={data.tab === "installed" ? "Installed apps" : "Search results"}
            anchorAt={data.paging?.firstNew ?? null}
          />
        )}
        {data.paging ? <ResultsMoreLess paging={data.paging} to={to} /> : null}
      </section>
      {data.modal === "age" ? <AgeModal to={to} current={data.filter} /> : null}
      {data.modal === "category" ? <CategoryModal to={to} current={data.filter} categories={data.categories} /> : null}
      {data.modal === "expert" ? <ExpertModal to={to} current={data.filter} /> : null}
      {data.modal === "install" && data.install && data.appId ? (
        <InstallModal
          appTitle={data.install.title}
          closeHref={to({ modal: null, appId: null, limitOn: null, limit: null })}
          draft={data.install.draft}
          hidden={{ intent: "install", packageName: data.appId }}
          error={error}
        />
      ) : null}
      {failing?.failureReason ? (
        <FailureModal
          appTitle={failing.title}
          reason={failing.failureReason}
          retry={failing.retry ?? null}
          maxAttempts={data.maxAttempts}
          closeHref={to({ modal: null, appId: null })}
        />
      ) : null}
    </div>
  );
}
