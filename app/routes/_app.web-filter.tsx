import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { DefaultSubmit } from "~/components/dashboard/Stepper";
import { SubmitButton } from "~/components/forms";
import { webFilterAction } from "~/components/web-filter/actions.server";
import { AllowList } from "~/components/web-filter/AllowList";
import { CategoryList } from "~/components/web-filter/CategoryList";
import { loadWebFilterPage } from "~/components/web-filter/page.server";
import { readPrivateDnsView } from "#device-service/private-dns";
import { PrivateDns } from "~/components/web-filter/PrivateDns";
import { SearchSafety } from "~/components/web-filter/SearchSafety";
import { sameDraft, withCategory, type WebFilterDraft } from "~/rules/web-filter";
import { useIsSubmitting } from "~/utils/hooks";
import dashboardStyles from "../styles/dashboard.css?url";
import webFilterStyles from "../styles/web-filter.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: dashboardStyles },
  { rel: "stylesheet", href: webFilterStyles },
];
export const meta: MetaFunction = () => [{ title: "Web Filter · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { kid, device } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const webFilter = args.context.services.webFilter;
  const [page, phone] = await Promise.all([
    loadWebFilterPage(args.context.services, kid.id, url.searchParams),
    // What this phone reported of its Private DNS, shown beside the hostname it should use.
    readPrivateDnsView(
      args.context.services.db,
      { deviceId: device.id, profileId: kid.id },
      webFilter ? (id) => webFilter.hostname(id) : null,
    ),
  ]);
  return json({ kid: { id: kid.id, name: kid.name }, serialNumber: device.serial_number, ...page, phonePrivateDns: phone.state });
}

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { kid, device } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  return webFilterAction(args.context.services, { id: kid.id, serialNumber: device.serial_number }, await args.request.formData());
}

export default function WebFilter() {
  const data = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  // A refused Add answers the posted draft: nothing the parent chose is lost.
  const shown = refused?.draft ?? data.draft;
  const [draft, setDraft] = useState<WebFilterDraft>(shown);
  const [newHost, setNewHost] = useState(refused?.newHost ?? "");
  const [seen, setSeen] = useState(shown);
  // By value: a revalidation that answers the same draft keeps what the switches changed since.
  if (!sameDraft(seen, shown) || (refused && seen !== shown)) {
    setSeen(shown);
    setDraft(shown);
    setNewHost(refused?.newHost ?? "");
  }
  const busy = useIsSubmitting({ intent: "save" });
  const unsaved = !sameDraft(draft, data.saved);
  return (
    <div className="stack">
      <PageHead title="Web Filter" kidName={data.kid.name} profileId={data.kid.id} />
      <PrivateDns hostname={data.privateDns?.hostname ?? null} kidName={data.kid.name} phone={data.phonePrivateDns} />
      <Form method="post" preventScrollReset className="stack" noValidate>
        <DefaultSubmit name="intent" value="add" />
        <CategoryList
          categories={data.categories}
          schedules={data.schedules}
          draft={draft}
          onToggle={(id, on) => setDraft((d) => withCategory(d, id, on))}
          onSchedule={(id, scheduleId) =>
            setDraft((d) => ({ ...d, blocked: d.blocked.map((b) => (b.categoryId === id ? { ...b, scheduleId } : b)) }))
          }
        />
        <SearchSafety
          safeSearch={draft.safeSearch}
          youtube={draft.youtube}
          onSafeSearch={(on) => setDraft((d) => ({ ...d, safeSearch: on }))}
          onYoutube={(youtube) => setDraft((d) => ({ ...d, youtube }))}
        />
        <AllowList hosts={draft.allowList} newHost={newHost} onNewHost={setNewHost} error={refused?.error ?? null} />
        <div className="card wf-save">
          <p className="small" role="status" data-testid="web-filter-unsaved">
            {unsaved ? "Changes not saved yet." : "All changes saved."}
          </p>
          <SubmitButton busy={busy} name="intent" value="save" className="btn">
            Save
          </SubmitButton>
        </div>
      </Form>
    </div>
  );
}
