import { parseWithZod } from "@conform-to/zod";
import { json } from "@remix-run/node";
import { hrefWith } from "~/components/dashboard/device.server";
import { limitAfterSwitch, limitStep, type LimitKind } from "~/rules/apps";
import { toMinutes } from "~/rules/minutes";
import { redirectWithToast } from "~/utils/toast.server";
import type { LimitDraft } from "./LimitForm";
import { readSwitch } from "~/components/dashboard/switch-form";
import { limitSchema } from "./schemas";

/** The limit shown: a draft kept in the URL (no-JavaScript switch and stepper) or the stored one. */
export function limitDraft(url: URL, stored: LimitDraft): LimitDraft {
  const on = url.searchParams.get("limitOn");
  if (on === null) return stored;
  return { enabled: on === "1", minutes: on === "1" ? toMinutes(url.searchParams.get("limit")) : 0 };
}

/**
 * The "limit" intent of /application and /category. The switch and the stepper (without JavaScript) answer with
 * a draft in the URL; Save checks the value (spec 2 §5) and calls `save`, whose redirect drops the draft.
 */
export async function limitIntent(
  request: Request,
  form: FormData,
  kind: LimitKind,
  stored: number,
  save: (v: { enabled: boolean; minutes: number }, back: string) => Promise<Response>,
) {
  const toggle = readSwitch(form);
  const step = form.get("step");
  const notSaved = { type: "info" as const, message: "Not saved yet: press Save." };
  if (toggle === "on" || toggle === "off") {
    return redirectWithToast(
      hrefWith(request, { limitOn: toggle === "on" ? "1" : "0", limit: String(limitAfterSwitch(toggle === "on", stored)) }),
      notSaved,
    );
  }
  if (step === "+15" || step === "-15") {
    return redirectWithToast(
      hrefWith(request, { limitOn: "1", limit: String(limitStep(form.get("minutes"), step === "+15" ? 1 : -1)) }),
      notSaved,
    );
  }
  // Save: the schema the form checks in the browser too (limitSchema).
  const submission = parseWithZod(form, { schema: limitSchema(kind) });
  if (submission.status !== "success") {
    const enabled = form.get("enableDailyLimit") === "on";
    const error = submission.error?.minutes?.[0] ?? "Please enter time.";
    return json({ intent: "limit" as const, error, draft: { enabled, minutes: 0 } }, { status: 400 });
  }
  return save(submission.value, hrefWith(request, { limitOn: null, limit: null }));
}
