import { json } from "@remix-run/node";
import { hrefWith } from "~/components/dashboard/device.server";
import { checkLimit, limitAfterSwitch, limitStep } from "~/rules/apps";
import { toMinutes } from "~/rules/minutes";
import { redirectWithToast } from "~/utils/toast.server";
import { INSTALL_DRAFT_DEFAULT, type InstallDraft } from "./InstallModal";

/** The install popup's limit: a draft in the URL (no-JavaScript switch and stepper) or the default (on, 60). */
export function installDraft(url: URL): InstallDraft {
  const on = url.searchParams.get("limitOn");
  if (on === null) return INSTALL_DRAFT_DEFAULT;
  return { enabled: on === "1", minutes: on === "1" ? toMinutes(url.searchParams.get("limit")) : 0 };
}

/**
 * The install popup's post. The switch and the stepper (without JavaScript) answer with a draft in the URL;
 * `do=save` checks the limit (spec 2 §5: above 0, a multiple of 15) and installs with it; `do=skip` installs with
 * no limit (spec 2 §4: limit off, 0 minutes). `install` calls the device service and answers with its redirect.
 */
export async function installIntent(
  request: Request,
  form: FormData,
  install: (v: { enabled: boolean; minutes: number }, back: string) => Promise<Response>,
) {
  const toggle = form.get("toggle");
  const step = form.get("step");
  const draft = (on: boolean, minutes: number) =>
    redirectWithToast(hrefWith(request, { limitOn: on ? "1" : "0", limit: String(minutes) }), {
      type: "info",
      message: "Not installed yet: press Save and Install.",
    });
  if (toggle === "on" || toggle === "off") return draft(toggle === "on", limitAfterSwitch(toggle === "on", 0));
  if (step === "+15" || step === "-15") return draft(true, limitStep(form.get("minutes"), step === "+15" ? 1 : -1));
  const back = hrefWith(request, { limitOn: null, limit: null });
  const what = form.get("do");
  if (what === "skip") return install({ enabled: false, minutes: 0 }, back);
  if (what !== "save")
    return json({ intent: "install" as const, error: "Please choose Save and Install or Skip & Install." }, { status: 400 });
  const enabled = form.get("enableDailyLimit") === "on";
  const checked = checkLimit("app", enabled, form.get("minutes"));
  if (!checked.ok) return json({ intent: "install" as const, error: checked.message }, { status: 400 });
  if (!enabled || checked.minutes <= 0)
    return json(
      { intent: "install" as const, error: "Please set a daily limit above 0 minutes, or choose Skip & Install." },
      { status: 400 },
    );
  return install({ enabled: true, minutes: checked.minutes }, back);
}
