import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { getLocationSettings } from "#db/queries/dashboard/location";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { SubmitButton } from "~/components/forms";
import dashboardStyles from "../styles/dashboard.css?url";
import { useIsSubmitting } from "~/utils/hooks";
import { trackingInterval } from "~/rules/location";
import { checkDailyLimit, stepMinutes, TIME_STEP, toMinutes } from "~/rules/minutes";
import { redirectWithToast } from "~/utils/toast.server";
import { Switch } from "~/components/dashboard/Switch";
import { readSwitch } from "~/components/dashboard/switch-form";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Location Settings · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const { device, kid } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const saved = await getLocationSettings(args.context.services.db, device.id);
  const draftTracking = url.searchParams.get("tracking");
  const draftInterval = url.searchParams.get("interval");
  const tracking = draftTracking === null ? saved.enableLocationTracking : draftTracking === "on";
  const interval =
    draftInterval === null ? (saved.enableLocationTracking ? saved.locationTrackingInterval || TIME_STEP : 0) : toMinutes(draftInterval);
  return json({ kid: { id: kid.id, name: kid.name }, serialNumber: device.serial_number, saved, tracking, interval });
}

const Intent = z.enum(["fetch", "save"]);

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const { parent, device } = await requireKidDevice(args, url.searchParams.get("profileId"), url.searchParams.get("serialNumber"));
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const serialNumber = device.serial_number;
  if (intent.data === "fetch") {
    return callDevice(
      args.context,
      parent,
      hrefWith(args.request, {}),
      (d) => d.device.sendFcmCommand({ serialNumber, action: "send_location" }),
      "Asked the phone for its location.",
    );
  }
  const enabled = form.get("enableLocationTracking") === "on";
  const step = form.get("step");
  const toggle = readSwitch(form);
  if (step === "+15" || step === "-15") {
    const next = stepMinutes(form.get("interval"), step === "+15" ? 1 : -1);
    return redirectWithToast(hrefWith(args.request, { tracking: next > 0 ? "on" : "off", interval: String(next) }), {
      type: "info",
      message: "Not saved yet: press Save.",
    });
  }
  if (toggle === "on" || toggle === "off") {
    return redirectWithToast(
      hrefWith(args.request, { tracking: toggle, interval: String(trackingInterval(toggle === "on", form.get("interval"))) }),
      {
        type: "info",
        message: "Not saved yet: press Save.",
      },
    );
  }
  // Whole minutes from 0 to 1,440 in steps of 15, refused like the global daily limit (spec 1 §5): the message under
  // the field and the value back to 0. "15abc" or "1e300" is refused too, never read as a number.
  const checked = checkDailyLimit(form.get("interval"));
  if (!checked.ok) return json({ intent: "save" as const, error: checked.message, minutes: 0 }, { status: 400 });
  const interval = trackingInterval(enabled, checked.minutes);
  return callDevice(args.context, parent, hrefWith(args.request, { tracking: null, interval: null }), (d) =>
    d.device.updateDevice({ serialNumber, enableLocationTracking: enabled && interval > 0, locationTrackingInterval: interval }),
  );
}

export default function LocationSettings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "error" in actionData ? actionData : null;
  const [tracking, setTracking] = useState(refused ? false : data.tracking);
  const [interval, setIntervalMinutes] = useState(refused ? 0 : data.interval);
  const [seen, setSeen] = useState({ data, refused });
  if (seen.data !== data || seen.refused !== refused) {
    setSeen({ data, refused });
    setTracking(refused ? false : data.tracking);
    setIntervalMinutes(refused ? 0 : data.interval);
  }
  const busyFetch = useIsSubmitting({ intent: "fetch" });
  const busySave = useIsSubmitting({ intent: "save" });
  return (
    <div className="stack">
      <PageHead title="Location Settings" kidName={data.kid.name} profileId={data.kid.id} />
      <section className="card settings-section" aria-labelledby="fetch-title">
        <h2 id="fetch-title">Where is {data.kid.name}?</h2>
        <p className="muted small">Asks the phone to report its location now. The dashboard shows it when it arrives.</p>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="fetch" />
          <SubmitButton busy={busyFetch} className="btn">
            Fetch Location Now
          </SubmitButton>
        </Form>
      </section>
      <section className="card settings-section" aria-labelledby="tracking-title">
        <h2 id="tracking-title">Location tracking</h2>
        <Form method="post" preventScrollReset className="settings-section">
          <DefaultSubmit name="intent" value="save" />
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="enableLocationTracking" value={tracking ? "on" : "off"} />
          <Switch
            checked={tracking}
            label="Enable location tracking"
            onToggle={(next) => {
              setTracking(next);
              setIntervalMinutes(trackingInterval(next, interval));
            }}
          />
          <MinutesStepper
            id="interval"
            name="interval"
            label="Tracking interval in minutes"
            value={interval}
            describedBy={refused ? "interval-error" : undefined}
            onChange={(v) => {
              setIntervalMinutes(v);
              setTracking(v > 0);
            }}
          />
          {refused ? (
            <p className="field-error" id="interval-error" role="alert">
              {refused.error}
            </p>
          ) : null}
          <p className="muted small">
            Saved: {data.saved.enableLocationTracking ? `every ${data.saved.locationTrackingInterval} minutes` : "tracking off"}.
          </p>
          <div>
            <SubmitButton busy={busySave} className="btn">
              Save
            </SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
