import { json, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { z } from "zod";
import { getGlobalDailyLimit } from "#db/queries/dashboard/limits";
import { latestRingCommand } from "#db/queries/dashboard/ring";
import { setReportType } from "#db/queries/dashboard/reports";
import { globalSettingChangedBy } from "#db/queries/parent-profile";
import { findParentTimeZone } from "#db/queries/reports";
import { isTimeZone, TIME_ZONES } from "#core/report-periods";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { requireKidDevice } from "~/components/dashboard/guard.server";
import { PageHead } from "~/components/dashboard/PageHead";
import { DefaultSubmit, MinutesStepper } from "~/components/dashboard/Stepper";
import { SubmitButton } from "~/components/forms";
import dashboardStyles from "../styles/dashboard.css?url";
import { useIsSubmitting } from "~/utils/hooks";
import { checkDailyLimit, formatMinutes, limitAfterToggle, stepMinutes, toMinutes } from "~/rules/minutes";
import { DEFAULT_REPORT_TYPE, REPORT_TYPES } from "~/rules/reports";
import { redirectWithToast } from "~/utils/toast.server";
import { Switch } from "~/components/dashboard/Switch";
import { savedWeekdays, weekdayDraft, weekdaysIntent } from "~/components/time-rules/forms.server";
import { WeekdayLimits } from "~/components/time-rules/TimeControls";
import { isPlaying, ringState, RING_STATE_TEXT } from "~/rules/ring";
import { useLiveRefresh } from "~/utils/live";
import { NO_JS_REFRESH_SECONDS } from "~/rules/status";
import { readSwitch } from "~/components/dashboard/switch-form";
import { ChangedBy } from "~/components/ChangedBy";
import { changedByLabel } from "~/rules/delegation";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: dashboardStyles }];
export const meta: MetaFunction = () => [{ title: "Global Settings · Kids Portal" }];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const profileId = url.searchParams.get("profileId");
  const serialNumber = url.searchParams.get("serialNumber");
  const { parent, device, kid } = await requireKidDevice(args, profileId, serialNumber);
  const db = args.context.services.db;
  const [saved, limitActor, lastRing, byDay, timeZone] = await Promise.all([
    getGlobalDailyLimit(db, device.id),
    globalSettingChangedBy(db, device.id),
    latestRingCommand(db, device.id),
    savedWeekdays(db, kid.id, "phone", ""),
    findParentTimeZone(db, parent.id),
  ]);
  const ring = ringState(lastRing);
  if (url.searchParams.get("isPlaying") === "true") {
    // Spec 1 §4: opening Global Settings with isPlaying starts ringing, once (the URL drops it), and only when the
    // parent opened it (typed, bookmarked, or from this site): a link on another site cannot ring the phone.
    const site = args.request.headers.get("Sec-Fetch-Site");
    const here = hrefWith(args.request, { isPlaying: null });
    if (isPlaying(ring) || (site !== null && site !== "same-origin" && site !== "none")) return redirect(here);
    return callDevice(
      args.context,
      parent,
      here,
      (d) => d.device.sendFcmCommand({ serialNumber: device.serial_number, action: "Ring a Phone" }),
      undefined,
      `${here}#ring`,
    );
  }
  const draft = url.searchParams.get("limit");
  const fullDraft = url.searchParams.get("fullAccess");
  return json({
    kid: { id: kid.id, name: kid.name },
    serialNumber: device.serial_number,
    savedLimit: saved,
    limitBy: changedByLabel(limitActor, parent.id),
    limit: draft === null ? saved : toMinutes(draft),
    weekdays: weekdayDraft(url, byDay, saved),
    savedFullAccess: Boolean(device.allow_full_device_access),
    fullAccess: fullDraft === "on" ? true : fullDraft === "off" ? false : Boolean(device.allow_full_device_access),
    ring: { state: ring, playing: isPlaying(ring), text: RING_STATE_TEXT[ring] },
    // Without JavaScript the page reloads itself until the phone confirms the ring or the stop (root.tsx).
    noJsRefreshSeconds: ring === "starting" || ring === "stopping" ? NO_JS_REFRESH_SECONDS : null,
    noJsRefreshAt: "ring",
    reportType: parent.kids_report_type ?? DEFAULT_REPORT_TYPE,
    timeZone: timeZone ?? "UTC",
    timeZones: TIME_ZONES,
  });
}

const Intent = z.enum(["limit", "weekdays", "full-access", "ring", "report"]);

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
      const toggle = readSwitch(form);
      // Without JavaScript the stepper and the switch change a draft kept in the URL; Save stores it.
      if (step === "+15" || step === "-15")
        return redirectWithToast(hrefWith(args.request, { limit: String(stepMinutes(form.get("minutes"), step === "+15" ? 1 : -1)) }), {
          type: "info",
          message: "Not saved yet: press Save.",
        });
      if (toggle === "on" || toggle === "off")
        return redirectWithToast(hrefWith(args.request, { limit: String(limitAfterToggle(toggle === "on")) }), {
          type: "info",
          message: "Not saved yet: press Save.",
        });
      const checked = checkDailyLimit(form.get("minutes"));
      if (!checked.ok) return json({ intent: "limit" as const, error: checked.message, minutes: 0 }, { status: 400 });
      return callDevice(args.context, parent, hrefWith(args.request, { limit: null }), (d) =>
        d.settings.setGlobalDailyLimit({ serialNumber: device.serial_number, minutes: checked.minutes }),
      );
    }
    case "weekdays":
      return weekdaysIntent(
        { request: args.request, context: args.context, parent, profileId: profileId!, scope: "phone", target: "" },
        form,
      );
    case "full-access": {
      // Like the daily limit: the switch changes a draft (in the URL without JavaScript), Save stores it.
      const toggle = readSwitch(form, "fullAccess");
      if (toggle)
        return redirectWithToast(`${hrefWith(args.request, { fullAccess: toggle })}#full-access`, {
          type: "info",
          message: "Not saved yet: press Save.",
        });
      const allowFullAccess = form.get("allowFullAccess") === "on";
      const back = `${hrefWith(args.request, { fullAccess: null })}#full-access`;
      return callDevice(args.context, parent, back, (d) =>
        d.kids.setProtection({
          profileId: profileId!,
          serialNumber: device.serial_number,
          kidsAppProtectionStatus: Boolean(device.protection_enabled),
          allowFullAccess,
        }),
      );
    }
    case "ring": {
      // The button shows the phone's state from the command and its acknowledgement (rules/ring.ts), not the URL.
      const play = form.get("ring") === "play";
      const back = `${hrefWith(args.request, { isPlaying: null })}#ring`;
      return callDevice(args.context, parent, back, (d) =>
        d.device.sendFcmCommand({ serialNumber: device.serial_number, action: play ? "Ring a Phone" : "Stop Sound" }),
      );
    }
    case "report": {
      const type = z.enum(REPORT_TYPES).safeParse(form.get("kidsReportType"));
      if (!type.success) return redirectWithToast(here, { type: "error", message: "Please choose Off, Weekly or Monthly." });
      const zone = form.get("timeZone");
      if (zone !== null && !(typeof zone === "string" && isTimeZone(zone)))
        return redirectWithToast(here, { type: "error", message: "Please choose a time zone from the list." });
      await setReportType(args.context.services.db, parent.id, type.data);
      // The family's one time zone: reports close weeks in it, and every phone gets its time rules in it.
      if (typeof zone === "string" && zone !== (await findParentTimeZone(args.context.services.db, parent.id))) {
        return callDevice(args.context, parent, here, async (d) => ({
          ...(await d.time.setTimeZone({ timeZone: zone })),
          respones_msg: `Report frequency saved. Your time zone is ${zone}.`,
        }));
      }
      return redirectWithToast(here, { type: "success", message: "Report frequency saved." });
    }
  }
}

export default function GlobalSettings() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refused = actionData && "error" in actionData && actionData.intent === "limit" ? actionData : null;
  const weekdayError =
    actionData && "error" in actionData && actionData.intent === "weekdays" ? { message: actionData.error, day: actionData.day } : null;
  const [minutes, setMinutes] = useState(refused ? 0 : data.limit);
  const [seen, setSeen] = useState({ limit: data.limit, refused });
  if (seen.limit !== data.limit || seen.refused !== refused) {
    setSeen({ limit: data.limit, refused });
    setMinutes(refused ? 0 : data.limit);
  }
  useLiveRefresh(data.kid.id);
  const [full, setFull] = useState(data.fullAccess);
  const [seenFull, setSeenFull] = useState(data.fullAccess);
  if (seenFull !== data.fullAccess) {
    setSeenFull(data.fullAccess);
    setFull(data.fullAccess);
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
          The most screen time {data.kid.name} gets each day across all apps. Saved:{" "}
          {data.savedLimit > 0 ? formatMinutes(data.savedLimit) : "no limit"}.
          <ChangedBy by={data.limitBy} testId="limit-changed-by" inline />
        </p>
        <Form method="post" preventScrollReset className="settings-section" noValidate>
          <DefaultSubmit name="intent" value="limit" />
          <input type="hidden" name="intent" value="limit" />
          <Switch checked={enabled} label="Daily limit" onToggle={(next) => setMinutes(limitAfterToggle(next))} />
          <MinutesStepper
            id="minutes"
            name="minutes"
            label="Minutes a day"
            value={minutes}
            onChange={setMinutes}
            describedBy={refused ? "minutes-error" : undefined}
          />
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
        <WeekdayLimits draft={data.weekdays} error={weekdayError} what="Global daily limit" />
      </section>

      <section className="card settings-section" aria-labelledby="schedules-title">
        <h2 id="schedules-title">Schedules</h2>
        <p className="muted small">
          Bedtime, school time and other times when {data.kid.name}&apos;s phone or some apps are blocked, and apps that are always allowed.
        </p>
        <p>
          <Link
            to={`/schedules?${new URLSearchParams({ profileId: data.kid.id, serialNumber: data.serialNumber })}`}
            className="btn btn-outline"
          >
            Schedules
          </Link>
        </p>
      </section>

      <section className="card settings-section" id="full-access" aria-labelledby="full-title">
        <h2 id="full-title">Allow Full Settings</h2>
        <p className="banner banner-warning">
          When this is on, {data.kid.name} can open every phone setting and bypass the protections you set, including app limits and sleep
          mode.
        </p>
        <p className="muted small" data-testid="full-access-saved">
          Saved: {data.savedFullAccess ? "full device access is allowed (protections are off)" : "not allowed (protections apply)"}.
        </p>
        <Form method="post" preventScrollReset className="settings-section">
          <DefaultSubmit name="intent" value="full-access" />
          <input type="hidden" name="intent" value="full-access" />
          <input type="hidden" name="allowFullAccess" value={full ? "on" : "off"} />
          <Switch checked={full} name="fullAccess" label="Allow Full Settings" onToggle={setFull} />
          <div>
            <SubmitButton busy={busyFull} className="btn">
              Save
            </SubmitButton>
          </div>
        </Form>
      </section>

      <section className="card settings-section" id="ring" aria-labelledby="ring-title">
        <h2 id="ring-title">Ring This Device</h2>
        <p className="muted small">Plays a loud sound on {data.kid.name}&apos;s phone, even when it is on silent.</p>
        <p role="status" data-testid="ring-state" data-state={data.ring.state}>
          {data.ring.text}
        </p>
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value="ring" />
          <input type="hidden" name="ring" value={data.ring.playing ? "stop" : "play"} />
          <SubmitButton busy={busyRing} className={data.ring.playing ? "btn btn-danger" : "btn"}>
            {data.ring.playing ? "Stop Sound" : "Play Sound"}
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
          <label className="field">
            Time zone
            <select name="timeZone" defaultValue={data.timeZone}>
              {data.timeZones.map((z: string) => (
                <option key={z} value={z}>
                  {z.replace(/_/g, " ")}
                </option>
              ))}
            </select>
          </label>
          <p className="muted small">Weeks run Monday to Sunday in this time zone; a report is made when the week or month ends.</p>
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
