import { type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction, json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { deleteSchedule, saveAlwaysAllowed, saveSchedule, schedulesPage } from "~/components/schedules/page.server";
import { AlwaysAllowed, DeleteScheduleModal, ScheduleList } from "~/components/schedules/ScheduleList";
import { ScheduleModal } from "~/components/schedules/ScheduleModal";
import { presetDraft } from "~/components/schedules/schemas";
import dashboardStyles from "../styles/dashboard.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Schedules · Kids Portal" }];

/** /schedules?profileId=…&serialNumber=…: a kid's schedules (Bedtime, School time…) and "Always allowed" apps (issue 21). */
function ids(request: Request) {
  const url = new URL(request.url);
  return { url, profileId: url.searchParams.get("profileId"), serialNumber: url.searchParams.get("serialNumber") };
}

export async function loader(args: LoaderFunctionArgs) {
  const { url, profileId, serialNumber } = ids(args.request);
  const { device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const page = await schedulesPage(args.context.services.db, kid, device.id, url);
  return json({ kid: { id: kid.id, name: kid.name }, serialNumber: device.serial_number, ...page });
}

const Intent = z.enum(["save", "delete", "always-allowed"]);

export async function action(args: ActionFunctionArgs) {
  const { profileId, serialNumber } = ids(args.request);
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const ctx = { request: args.request, context: args.context, parent, kid, deviceId: device.id };
  switch (intent.data) {
    case "save":
      return saveSchedule(ctx, form);
    case "delete":
      return deleteSchedule(ctx, form);
    case "always-allowed":
      return saveAlwaysAllowed(ctx, form);
  }
}

export default function Schedules() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "intent" in actionData && actionData.intent === "save" ? actionData.result : undefined;
  const draft = data.draft ?? (refused ? presetDraft(null) : null);
  return (
    <div className="stack">
      <PageHead title="Schedules" kidName={data.kid.name} profileId={data.kid.id} />
      <ScheduleList schedules={data.schedules} kidName={data.kid.name} />
      <AlwaysAllowed apps={data.apps} />
      {draft ? (
        <ScheduleModal draft={draft} lastResult={refused} presets={data.presets} categories={data.categories} apps={data.apps} />
      ) : null}
      {data.confirm ? <DeleteScheduleModal schedule={data.confirm} /> : null}
    </div>
  );
}
