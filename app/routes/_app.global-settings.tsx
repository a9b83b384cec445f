import { json, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { getGlobalDailyLimit, setReportType } from "../../db/queries/dashboard";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { SubmitButton } from "~/components/forms";
import dashboardStyles from "../styles/dashboard.css?url";
import { useIsSubmitting } from "~/utils/hooks";
import { checkDailyLimit, DEFAULT_REPORT_TYPE, formatMinutes, limitAfterToggle, REPORT_TYPES, stepMinutes, toMinutes } from "~/utils/rules";
import { redirectWithToast } from "~/utils/toast.server";
import { Switch } from "~/components/dashboard/Switch";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Global Settings · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const serialNumber = url.searchParams.get("serialNumber");
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const saved = await getGlobalDailyLimit(args.context.services.db, device.id);
  const draft = url.searchParams.get("limit");
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    savedLimit: saved,
    limit: draft === null ? saved : toMinutes(draft),
    allowFullDeviceAccess: Boolean(device.allow_full_device_access),
    isPlaying: url.searchParams.get("isPlaying") === "true",
    reportType: parent.kids_report_type ?? DEFAULT_REPORT_TYPE,
  });
}

const Intent = z.enum(["limit", "full-access", "ring", "report"]);

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const serialNumber = url.searchParams.get("serialNumber");
  const { parent, device } = await requireKidDevice(args, profileId, serialNumber);
  const form = await args.request.formData();
  const intent = Intent.safeParse(form.get("intent"));
  if (!intent.success) throw new Response("Unknown action.", { status: 400 });
  const here = hrefWith(args.request, {});
  switch (intent.data) {
    case "limit": {
      const step = form.get("step");
      const toggle = form.get("toggle");
      // Without JavaScript the stepper and the switch change a draft kept in the URL; Save stores it.
      if (step === "+15" || step === "-15") return redirectWithToast(hrefWith(args.request, { limit: String(stepMinutes(form.get("minutes"), step === "+15" ? 1 : -1)) }), { type: "info", message: "Not saved yet: press Save." });
      if (toggle === "on" || toggle === "off") return redirectWithToast(hrefWith(args.request, { limit: String(limitAfterToggle(toggle === "on")) }), { type: "info", message: "Not saved yet: press Save." });
      const checked = checkDailyLimit(form.get("minutes"));
      if (!checked.ok) return json({ intent: "limit" as const, error: checked.message, minutes: 0 }, { status: 400 });
      return callDevice(args.context, parent, hrefWith(args.request, { limit: null }), (d) => d.settings.setGlobalDailyLimit({ serialNumber: device.serial_number, minutes: checked.minutes }));
    }
    case "full-access": {
      const allowFullAccess = form.get("allowFullAccess") === "on";
      return callDevice(args.context, parent, here, (d) =>
        d.kids.setProtection({ profileId: profileId!, serialNumber: device.serial_number, kidsAppProtectionStatus: Boolean(device.protection_enabled), allowFullAccess }),
      );
    }
    case "ring": {
      const play = form.get("ring") === "play";
      return callDevice(
        args.context,
        parent,
        here,
        (d) => d.device.sendFcmCommand({ serialNumber: device.serial_number, action: play ? "Ring a Phone" : "Stop Sound" }),
        play ? "The phone is ringing." : "The sound was stopped.",
        hrefWith(args.request, { isPlaying: play ? "true" : null }),
      );
    }
    case "report": {
      const type = z.enum(REPORT_TYPES).safeParse(form.get("kidsReportType"));
      if (!type.success) return redirectWithToast(here, { type: "error", message: "Please choose Off, Weekly or Monthly." });
      await setReportType(args.context.services.db, parent.id, type.data);
      return redirectWithToast(here, { type: "success", message: "Report frequency saved." });
    }
  }
}

export default function GlobalSettings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "error" in actionData ? actionData : null;
  const [minutes, setMinutes] = useState(refused ? 0 : data.limit);
  const [seen, setSeen] = useState({ limit: data.limit, refused });
  if (seen.limit !== data.limit || seen.refused !== refused) {
    setSeen({ limit: data.limit, refused });
    setMinutes(refused ? 0 : data.limit);
  }
  const enabled = minutes > 0;
  const busyLimit = useIsSubmitting({ intent: "limit" });
  const busyFull = useIsSubmitting({ intent: "full-access" });
  const busyRing = useIsSubmitting({ intent: "ring" });
  const busyReport = useIsSubmitting({ intent: "report" });
  return (
    <div className="stack">
      <PageHead title="Global Settings" kidName={data.kid.name} profileId={data.kid.id} />

      <section className="card settings-section" aria-labelledby="limit-title">
        <h2 id="limit-title">Global daily limit</h2>
        <p className="muted small">
          The most screen time {data.kid.name} gets each day across all apps. Saved: {data.savedLimit > 0 ? formatMinutes(data.savedLimit) : "no limit"}.
        </p>
        <Form method="post" preventScrollReset className="settings-section" noValidate>
          <DefaultSubmit name="intent" value="limit" />
          <input type="hidden" name="intent" value="limit" />
          <Switch checked={enabled} label="Daily limit" onToggle={(next) => setMinutes(limitAfterToggle(next))} />
          <MinutesStepper id="minutes" name="minutes" label="Minutes a day" value={minutes} onChange={setMinutes} describedBy={refused ? "minutes-error" : undefined} />
          {refused ? (
            <p className="field-error" id="minutes-error" role="alert">
              {refused.error}
            </p>
          ) : null}
          <div>
            <SubmitButton busy={busyLimit} className="btn">
              Save
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section className="card settings-section" aria-labelledby="full-title">
        <h2 id="full-title">Allow Full Settings</h2>
        <p className="banner banner-warning">
          When this is on, {data.kid.name} can open every phone setting and bypass the protections you set, including app limits and sleep mode.
        </p>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="full-access" />
          <input type="hidden" name="allowFullAccess" value={data.allowFullDeviceAccess ? "off" : "on"} />
          <Switch checked={data.allowFullDeviceAccess} label="Allow Full Settings" disabled={busyFull} />
        </Form>
      </section>

      <section className="card settings-section" aria-labelledby="ring-title">
        <h2 id="ring-title">Ring This Device</h2>
        <p className="muted small">Plays a loud sound on {data.kid.name}&apos;s phone, even when it is on silent.</p>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="ring" />
          <input type="hidden" name="ring" value={data.isPlaying ? "stop" : "play"} />
          <SubmitButton busy={busyRing} className={data.isPlaying ? "btn btn-danger" : "btn"}>
            {data.isPlaying ? "Stop Sound" : "Play Sound"}
          </SubmitButton>
        </Form>
      </section>

      <section className="card settings-section" aria-labelledby="report-title">
        <h2 id="report-title">Kids report frequency</h2>
        <Form method="post" preventScrollReset className="settings-section">
          <input type="hidden" name="intent" value="report" />
          <fieldset className="radio-row">
            <legend className="sr-only">Report frequency</legend>
            {REPORT_TYPES.map((t) => (
              <label key={t} className="choice">
                <input type="radio" name="kidsReportType" value={t} defaultChecked={data.reportType === t} />
                {t}
              </label>
            ))}
          </fieldset>
          <div>
            <SubmitButton busy={busyReport} className="btn">
              Save
            </SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
