import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { getDeviceDetails } from "#db/queries/dashboard/device";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { Modal } from "~/components/layout";
import { SubmitButton } from "~/components/forms";
import dashboardStyles from "../styles/dashboard.css?url";
import { useIsSubmitting } from "~/utils/hooks";
import { formatDateTime } from "#core/format";
import { recordId, serialNumber } from "#core/values";
import { requireParent } from "~/utils/auth.server";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Device Info · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { device, kid } = await requireKidDevice(args, url.searchParams.get("profile_id"), url.searchParams.get("serialNumber"));
  const d = await getDeviceDetails(args.context.services.db, device.id);
  if (!d) throw new Response("Device not found.", { status: 404 });
  const confirm = Confirmable.safeParse(url.searchParams.get("confirm"));
  return json({
    kid: { id: kid.id, name: kid.name },
    details: d,
    confirm: confirm.success ? confirm.data : null,
    askHref: { lock: hrefWith(args.request, { confirm: "lock" }), reboot: hrefWith(args.request, { confirm: "reboot" }) },
    closeHref: hrefWith(args.request, { confirm: null }),
  });
}

const Intent = z.enum(["lock", "reboot", "sync"]);
/** Lock and Reboot ask "are you sure?" first: `?confirm=lock|reboot` shows the question (works without JavaScript). */
const Confirmable = z.enum(["lock", "reboot"]);

/** The page's ids, as the device service takes them; anything else names no phone of the parent's (404). */
const PageIds = z.object({ profileId: recordId, serialNumber });

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent } = await requireParent(args);
  const ids = PageIds.safeParse({ profileId: url.searchParams.get("profile_id"), serialNumber: url.searchParams.get("serialNumber") });
  if (!ids.success) throw new Response("Device not found.", { status: 404 });
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const back = hrefWith(args.request, { confirm: null });
  // An unconfirmed lock or reboot (an old form, a replayed post) is asked about, never sent: on the page, if the
  // parent may see it.
  if ((intent.data === "lock" || intent.data === "reboot") && form.get("confirmed") !== "yes") {
    await requireKidDevice(args, ids.data.profileId, ids.data.serialNumber);
    return redirect(hrefWith(args.request, { confirm: intent.data }));
  }
  // The command procedure is the access check: the phone must be the parent's (own kid, or delegated and accepted)
  // and this kid's, in the statement that reads it, before anything is stored. Not so: the 404 the page would answer.
  const send = <T,>(call: () => Promise<T>) =>
    call().catch((err: unknown) => {
      throw err instanceof TRPCError && err.code === "NOT_FOUND" ? new Response("Device not found.", { status: 404 }) : err;
    });
  switch (intent.data) {
    case "lock":
      return callDevice(
        args.context,
        parent,
        back,
        (d) => send(() => d.device.issueCommand({ ...ids.data, type: "LOCK" })),
        "Lock sent to the phone.",
      );
    case "reboot":
      return callDevice(
        args.context,
        parent,
        back,
        (d) => send(() => d.device.issueCommand({ ...ids.data, type: "REBOOT" })),
        "Reboot sent to the phone.",
      );
    case "sync":
      return callDevice(args.context, parent, back, (d) => send(() => d.device.sync(ids.data)), "Sync requested.");
  }
}

const fmt = formatDateTime;

export default function DeviceInfo() {
  const { kid, details: d, confirm, askHref, closeHref } = useLoaderData<typeof loader>();
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
          <Link to={askHref.lock} className="btn" preventScrollReset>
            Lock Device
          </Link>
          <Link to={askHref.reboot} className="btn btn-outline" preventScrollReset>
            Reboot Device
          </Link>
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
      {confirm ? <ConfirmCommand what={confirm} kidName={kid.name} closeHref={closeHref} /> : null}
    </div>
  );
}

const CONFIRM_TEXT = {
  lock: {
    title: "Lock Device",
    question: (kid: string) => `Lock ${kid}'s phone now?`,
    detail: "The screen locks at once; it opens again with the phone's PIN.",
    button: "Lock Device",
  },
  reboot: {
    title: "Reboot Device",
    question: (kid: string) => `Restart ${kid}'s phone now?`,
    detail: "Anything unsaved on the phone is lost; it is back in about a minute.",
    button: "Reboot Device",
  },
} as const;

/** "Are you sure?" for Lock and Reboot: Cancel goes back, the button sends the command. */
function ConfirmCommand({ what, kidName, closeHref }: { what: "lock" | "reboot"; kidName: string; closeHref: string }) {
  const busy = useIsSubmitting({ intent: what });
  const t = CONFIRM_TEXT[what];
  return (
    <Modal title={t.title} closeHref={closeHref}>
      <p>
        <strong>{t.question(kidName)}</strong>
      </p>
      <p>{t.detail}</p>
      <div className="modal-actions">
        <Link to={closeHref} className="btn btn-outline" replace preventScrollReset>
          Cancel
        </Link>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value={what} />
          <input type="hidden" name="confirmed" value="yes" />
          <SubmitButton busy={busy} className={what === "lock" ? "btn" : "btn btn-danger"}>
            {`Yes, ${t.button.toLowerCase()}`}
          </SubmitButton>
        </Form>
      </div>
    </Modal>
  );
}
