import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { getDeviceDetails } from "../../db/queries/dashboard";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { SubmitButton } from "~/components/forms";
import dashboardStyles from "../styles/dashboard.css?url";
import { useIsSubmitting } from "~/utils/hooks";
import { formatDateTime } from "~/utils/format";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Device Info · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { device, kid } = await requireKidDevice(args, url.searchParams.get("profile_id"), url.searchParams.get("serialNumber"));
  const d = await getDeviceDetails(args.context.services.db, device.id);
  if (!d) throw new Response("Device not found.", { status: 404 });
  return json({ kid: { id: kid.id, name: kid.name }, details: d });
}

const Intent = z.enum(["lock", "reboot", "sync"]);

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device } = await requireKidDevice(args, url.searchParams.get("profile_id"), url.searchParams.get("serialNumber"));
  const intent = Intent.safeParse((await args.request.formData()).get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const serialNumber = device.serial_number;
  const back = hrefWith(args.request, {});
  switch (intent.data) {
    case "lock":
      return callDevice(args.context, parent, back, (d) => d.device.issueCommand({ serialNumber, type: "LOCK" }), "Lock sent to the phone.");
    case "reboot":
      return callDevice(args.context, parent, back, (d) => d.device.issueCommand({ serialNumber, type: "REBOOT" }), "Reboot sent to the phone.");
    case "sync":
      return callDevice(args.context, parent, back, (d) => d.device.sync({ serialNumber }), "Sync requested.");
  }
}

const fmt = formatDateTime;

export default function DeviceInfo() {
  const { kid, details: d } = useLoaderData<typeof loader>();
  const busyLock = useIsSubmitting({ intent: "lock" });
  const busyReboot = useIsSubmitting({ intent: "reboot" });
  const busySync = useIsSubmitting({ intent: "sync" });
  const rows: [string, string | number | null][] = [
    ["Battery level", d.battery_percentage == null ? null : `${d.battery_percentage}%`],
    ["Battery checked at", fmt(d.battery_checked_at)],
    ["Serial number", d.serial_number],
    ["Model", d.model],
    ["Brand", d.brand],
    ["Hardware", d.hardware],
    ["Baseband version", d.baseband_version],
    ["Manufacturer", d.manufacturer],
    ["Android version", d.android_version],
    ["Language", d.language_code],
    ["IMEI", d.imei],
    ["WiFi MAC", d.wifi_mac],
    ["Network operator", d.network_operator],
    ["Phone number", d.phone_number],
    ["RAM", d.total_ram],
    ["Storage", d.total_storage],
  ];
  return (
    <div className="stack">
      <PageHead title="Device Info" kidName={kid.name} profileId={kid.id} />
      <section className="card" aria-labelledby="commands-title">
        <h2 id="commands-title">Remote commands</h2>
        <div className="command-row">
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="lock" />
            <SubmitButton busy={busyLock} className="btn">
              Lock Device
            </SubmitButton>
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="reboot" />
            <SubmitButton busy={busyReboot} className="btn btn-outline">
              Reboot Device
            </SubmitButton>
          </Form>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="sync" />
            <SubmitButton busy={busySync} className="btn btn-outline">
              Sync
            </SubmitButton>
          </Form>
        </div>
      </section>
      <section className="card" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <dl className="details">
          {rows.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v ?? "—"}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
