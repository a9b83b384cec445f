import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { addDays, dayParam, todayUtc } from "#core/days";
import { BROWSER_LOG_MAX_PAGE } from "#core/limits";
import { recordId } from "#core/values";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { SubmitButton } from "~/components/forms";
import { Modal } from "~/components/layout";
import { DayNav } from "~/components/logs/DayNav";
import { PageNav } from "~/components/logs/PageNav";
import dashboardStyles from "../styles/dashboard.css?url";
import logsStyles from "../styles/logs.css?url";
import { formatDateTime } from "#core/format";
import { useIsSubmitting } from "~/utils/hooks";
import { redirectWithToast } from "~/utils/toast.server";
import { LockIcon } from "~/components/dashboard/icons";
import { Tabs } from "~/components/Tabs";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: logsStyles },
];
export const meta: MetaFunction = () => [{ title: "Browser Logs · Kids Portal" }];

const Status = z.enum(["block", "unblock"]);

/** `?page=N` of the day's addresses (BROWSER_LOG_PAGE_SIZE a page); anything else is the first page. */
function pageParam(raw: string | null): number {
  const n = Number(raw);
  return /^\d{1,3}$/.test(raw ?? "") && n >= 1 && n <= BROWSER_LOG_MAX_PAGE ? n : 1;
}

/** The page's view state, all in the URL: view (`sites`: the web filter's visited sites), currentDate, urlText, filterByStatus, confirm. */
function viewState(url: URL) {
  const status = Status.safeParse(url.searchParams.get("filterByStatus"));
  return {
    view: url.searchParams.get("view") === "sites" ? ("sites" as const) : ("addresses" as const),
    day: dayParam(url.searchParams.get("currentDate")),
    urlText: (url.searchParams.get("urlText") ?? "").slice(0, 200),
    status: status.success ? status.data : null,
  };
}

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device, kid } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const view = viewState(url);
  const page = pageParam(url.searchParams.get("page"));
  const caller = args.context.services.device({ id: parent.id, email: parent.email, role: parent.role });
  const sites =
    view.view === "sites" ? await caller.browser.sites({ serialNumber: device.serial_number, currentDate: view.day, page }) : null;
  const listed = sites
    ? null
    : await caller.browser.list({
        serialNumber: device.serial_number,
        currentDate: view.day,
        urlText: view.urlText || undefined,
        filterByStatus: view.status ?? undefined,
        page,
      });
  const list = listed?.list ?? [];
  const total = listed?.total ?? 0;
  const hasNextPage = (sites ?? listed)?.hasNextPage ?? false;
  const today = todayUtc();
  const at = (day: string) => hrefWith(args.request, { currentDate: day === today ? null : day, confirm: null, page: null });
  const onPage = (p: number) => `${hrefWith(args.request, { page: p === 1 ? null : String(p), confirm: null })}#list-title`;
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    ...view,
    prevHref: at(addDays(view.day, -1)),
    nextHref: view.day < today ? at(addDays(view.day, 1)) : null,
    // Unblock All only when the filter is block and there is something blocked (spec 2 /browser-logs).
    canUnblockAll: view.status === "block" && total > 0,
    confirming: url.searchParams.get("confirm") === "unblock-all" && view.status === "block" && total > 0,
    page,
    newerHref: page > 1 ? onPage(page - 1) : null,
    olderHref: hasNextPage ? onPage(page + 1) : null,
    confirmHref: hrefWith(args.request, { confirm: "unblock-all" }),
    addressesHref: hrefWith(args.request, { view: null, page: null, confirm: null }),
    sitesHref: hrefWith(args.request, { view: "sites", page: null, confirm: null }),
    webFilterHref: `/web-filter?${new URLSearchParams({ profileId: kid.id, serialNumber: device.serial_number })}`,
    /** Without the web filter on this server no lookups are recorded: the empty list says so. */
    filterOn: Boolean(args.context.services.webFilter),
    sites: sites?.list ?? null,
    keptDays: args.context.services.env.WEB_LOG_DAYS,
    closeHref: hrefWith(args.request, { confirm: null }),
    list,
  });
}

const Intent = z.enum(["add", "toggle", "unblock-all", "site"]);

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device, kid } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const back = hrefWith(args.request, { confirm: null });
  const serialNumber = device.serial_number;
  if (intent.data === "add") {
    const isBlocked = form.get("status") !== "unblock";
    return callDevice(args.context, parent, back, (d) => d.browser.create({ serialNumber, url: String(form.get("url") ?? ""), isBlocked }));
  }
  if (intent.data === "site") {
    // Block or Unblock on the Sites visited list: the same blocked addresses, then the web filter reloads the kid.
    let changed = false;
    const answer = await callDevice(args.context, parent, back, async (d) => {
      const r = await d.browser.setSite({
        serialNumber,
        domain: String(form.get("domain") ?? ""),
        isBlocked: form.get("isBlocked") === "true",
      });
      changed = true;
      return r;
    });
    if (changed)
      await args.context.services.webFilter?.kidChanged(kid.id).catch((err: unknown) => {
        // Stored: the device service's policy change reaches the filter over the bus as well.
        args.context.services.log("warn", "web filter: kid not reloaded", { error: err instanceof Error ? err.message : String(err) });
      });
    return answer;
  }
  if (intent.data === "toggle") {
    const id = recordId.safeParse(form.get("id"));
    if (!id.success) return redirectWithToast(back, { type: "error", message: id.error.issues[0]!.message });
    return callDevice(args.context, parent, back, (d) =>
      d.browser.updateStatus({ serialNumber, id: id.data, isBlocked: form.get("isBlocked") === "true" }),
    );
  }
  return callDevice(args.context, parent, back, (d) => d.browser.unblockAll({ serialNumber }));
}

export default function BrowserLogs() {
  const data = useLoaderData<typeof loader>();
  const adding = useIsSubmitting({ intent: "add" });
  const unblocking = useIsSubmitting({ intent: "unblock-all" });
  return (
    <div className="stack">
      <PageHead title="Browser Logs" kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card stack" aria-labelledby="add-title">
        <h2 id="add-title">Add URL</h2>
        <Form method="post" className="logs-toolbar" preventScrollReset>
          <input type="hidden" name="intent" value="add" />
          <label>
            URL
            <input name="url" type="text" inputMode="url" required maxLength={2048} placeholder="example.com" autoComplete="off" />
          </label>
          <label>
            Status
            <select name="status" defaultValue="block">
              <option value="block">Block</option>
              <option value="unblock">Unblock</option>
            </select>
          </label>
          <SubmitButton busy={adding} className="btn btn-primary">
            Add
          </SubmitButton>
        </Form>
      </section>
      <Tabs
        label="Browser log lists"
        items={[
          { label: "Web addresses", to: data.addressesHref, current: data.sites === null },
          { label: "Sites visited", to: data.sitesHref, current: data.sites !== null },
        ]}
      />
      {data.sites !== null ? (
        <section className="card stack" aria-labelledby="list-title">
          <h2 id="list-title">Sites visited</h2>
          <p className="muted small">
            Every site the phone looked up through the web filter, once a domain an hour; kept {data.keptDays} days.
          </p>
          <DayNav day={data.day} prevHref={data.prevHref} nextHref={data.nextHref} />
          <SitesVisited sites={data.sites} filterOn={data.filterOn} webFilterHref={data.webFilterHref} />
          <PageNav
            page={data.page}
            newerHref={data.newerHref}
            olderHref={data.olderHref}
            label="Site pages"
            newer="Previous"
            older="Next"
          />
        </section>
      ) : (
        <section className="card stack" aria-labelledby="list-title">
          <h2 id="list-title">Web addresses</h2>
          <DayNav day={data.day} prevHref={data.prevHref} nextHref={data.nextHref} />
          <Form method="get" className="logs-toolbar" role="search">
            <input type="hidden" name="profileId" value={data.kid.id} />
            <input type="hidden" name="serialNumber" value={data.serialNumber} />
            {data.day !== new Date().toISOString().slice(0, 10) && <input type="hidden" name="currentDate" value={data.day} />}
            <label>
              Search URL
              <input name="urlText" type="search" defaultValue={data.urlText} maxLength={200} />
            </label>
            <label>
              Filter by status
              <select name="filterByStatus" defaultValue={data.status ?? ""}>
                <option value="">All</option>
                <option value="block">Block</option>
                <option value="unblock">Unblock</option>
              </select>
            </label>
            <button type="submit" className="btn btn-outline">
              Search
            </button>
            {data.canUnblockAll && (
              <Link to={data.confirmHref} className="btn btn-danger" preventScrollReset>
                Unblock All
              </Link>
            )}
          </Form>
          {data.list.length === 0 ? (
            <p className="empty-state">No data found.</p>
          ) : (
            <ul className="url-list" aria-label="Web addresses">
              {data.list.map((r) => (
                <li key={r.id} className="card url-row">
                  <div className="stack-tight">
                    <a href={r.href} target="_blank" rel="noopener noreferrer nofollow">
                      {r.url}
                    </a>
                    <div>
                      <span className={`badge ${r.isBlocked ? "badge-red" : "badge-green"}`}>{r.isBlocked ? "Blocked" : "Allowed"}</span>
                      {r.blockedBy && r.blockedBy !== r.url && <span className="muted small"> by {r.blockedBy}</span>}
                      {r.visits > 0 && (
                        <span className="muted small">
                          {" "}
                          · {r.visits} {r.visits === 1 ? "visit" : "visits"}
                          {r.blockedVisits > 0 ? ` (${r.blockedVisits} blocked)` : ""}
                        </span>
                      )}
                    </div>
                    <div className="times">
                      Created: <time dateTime={r.created_at}>{formatDateTime(r.created_at)}</time> · Updated:{" "}
                      <time dateTime={r.updated_at}>{formatDateTime(r.updated_at)}</time>
                    </div>
                  </div>
                  <Form method="post" preventScrollReset>
                    <input type="hidden" name="intent" value="toggle" />
                    <input type="hidden" name="id" value={r.id} />
                    <input type="hidden" name="isBlocked" value={r.isBlocked ? "false" : "true"} />
                    <button
                      type="submit"
                      className="lock-btn"
                      aria-pressed={r.isBlocked}
                      aria-label={`${r.isBlocked ? "Unblock" : "Block"} ${r.url}`}
                      title={r.isBlocked ? "Blocked: press to unblock" : "Allowed: press to block"}
                    >
                      <LockIcon open={!r.isBlocked} />
                    </button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          <PageNav
            page={data.page}
            newerHref={data.newerHref}
            olderHref={data.olderHref}
            label="Address pages"
            newer="Previous"
            older="Next"
          />
        </section>
      )}
      {data.confirming && (
        <Modal title="Unblock All" closeHref={data.closeHref}>
          <p>Unblock every web address on {data.kid.name}&apos;s phone?</p>
          <div className="modal-actions">
            <Link to={data.closeHref} className="btn btn-outline" replace>
              Cancel
            </Link>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="unblock-all" />
              <SubmitButton busy={unblocking} className="btn btn-danger">
                Unblock All
              </SubmitButton>
            </Form>
          </div>
        </Modal>
      )}
    </div>
  );
}

type Site = ReturnType<typeof useLoaderData<typeof loader>>["sites"] extends (infer S)[] | null ? S : never;

/** Why a lookup was blocked, in the parent's words: the category's name, or the blocked address that covered it. */
function blockedWhy(reason: Site["reason"]): string {
  if (!reason) return "";
  if (reason.kind === "category") return reason.name;
  if (reason.kind === "rule") return `Blocked address ${reason.host}`;
  return "Blocked by the web filter";
}

/** The web filter's visited sites of the day, each with Block or Unblock in one click (a form: works without JavaScript). */
function SitesVisited({ sites, filterOn, webFilterHref }: { sites: Site[]; filterOn: boolean; webFilterHref: string }) {
  const navigation = useNavigation();
  const busyDomain =
    navigation.state !== "idle" && navigation.formData?.get("intent") === "site" ? navigation.formData.get("domain") : null;
  if (sites.length === 0)
    return (
      <p className="empty-state">
        {filterOn
          ? "No sites visited on this day. Sites show here once the phone uses the web filter as its Private DNS."
          : "No sites visited on this day. The web filter is switched off on this server, so no sites are recorded."}
      </p>
    );
  return (
    <ul className="url-list" aria-label="Sites visited">
      {sites.map((s) => {
        const blockedNow = s.rule !== null;
        const action = blockedNow ? "Unblock" : "Block";
        return (
          <li key={s.domain} className="card url-row">
            <div className="stack-tight">
              <strong className="site-domain">{s.domain}</strong>
              <div>
                <span className={`badge ${s.blocked ? "badge-red" : "badge-green"}`}>{s.blocked ? "Blocked" : "Allowed"}</span>
                {s.blocked && <span className="muted small"> · {blockedWhy(s.reason)}</span>}
                <span className="muted small">
                  {" "}
                  · {s.count} {s.count === 1 ? "lookup" : "lookups"}
                </span>
              </div>
              {blockedNow && <div className="small">Blocked from now on: blocked address {s.rule}</div>}
              {s.reason?.kind === "category" && !blockedNow && (
                <div className="small">
                  <Link to={webFilterHref}>Change {s.reason.name} on the Web Filter page</Link>
                </div>
              )}
              <div className="times">
                First: <time dateTime={s.firstAt}>{formatDateTime(s.firstAt)}</time> · Last:{" "}
                <time dateTime={s.lastAt}>{formatDateTime(s.lastAt)}</time>
              </div>
            </div>
            <Form method="post" preventScrollReset>
              <input type="hidden" name="intent" value="site" />
              <input type="hidden" name="domain" value={s.domain} />
              <input type="hidden" name="isBlocked" value={blockedNow ? "false" : "true"} />
              <SubmitButton
                busy={busyDomain === s.domain}
                className={blockedNow ? "btn btn-outline" : "btn btn-danger"}
                aria-label={`${action} ${s.domain}`}
              >
                {action}
              </SubmitButton>
            </Form>
          </li>
        );
      })}
    </ul>
  );
}
