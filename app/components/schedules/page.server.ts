import { json, type AppLoadContext } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { KIDS_APP_PACKAGE } from "#core/store";
import { hhmm } from "#core/zoned-time";
import { listKidApps } from "#db/queries/apps";
import type { Parent } from "#db/schema";
import { listTimeRules } from "#db/queries/time-rules/rules";
import { findSchedule, listSchedules, type ScheduleRow } from "#db/queries/time-rules/schedules";
import { callDevice, hrefWith } from "~/components/dashboard/device.server";
import { daysText } from "~/rules/time-rules";
import { redirectWithToast } from "~/utils/toast.server";
import { PRESETS, presetDraft, scheduleFormSchema, toScheduleFields, type ScheduleDraft } from "./schemas";
import { SCHEDULE_PRESETS } from "#core/time-values";

/** What the /schedules page reads and does (issue 21 item 2); the route module stays thin. */

type Db = AppLoadContext["services"]["db"];
const draftOf = (s: ScheduleRow): ScheduleDraft => ({
  id: s.id,
  name: s.name,
  days: s.days,
  start: hhmm(s.start),
  end: hhmm(s.end),
  blocks: s.blocksAll ? "all" : "some",
  categories: s.categories,
  apps: s.apps,
});

/** Another kid's (or family's) schedule id is a 404 that reveals nothing. */
async function ownSchedule(db: Db, profileId: string, id: string | null): Promise<ScheduleRow> {
  const s = id ? await findSchedule(db, profileId, id) : undefined;
  if (!s) throw new Response("Schedule not found.", { status: 404 });
  return s;
}

export async function schedulesPage(db: Db, kid: { id: string }, deviceId: string, url: URL) {
  const q = (k: string) => url.searchParams.get(k);
  const [rows, apps, rules] = await Promise.all([listSchedules(db, kid.id), listKidApps(db, deviceId), listTimeRules(db, kid.id)]);
  const allowed = new Set(rules.filter((r) => r.scope === "app" && r.alwaysAllowed).map((r) => r.target));
  const categories = [...new Map(apps.map((a) => [a.category, { id: a.category, name: a.categoryName }])).values()].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const appName = new Map(apps.map((a) => [a.packageName, a.title]));
  const catName = new Map(categories.map((c) => [c.id, c.name]));
  const modal = q("modal") === "add" ? ("add" as const) : q("modal") === "edit" ? ("edit" as const) : null;
  const draft = modal === "edit" ? draftOf(await ownSchedule(db, kid.id, q("id"))) : modal === "add" ? presetDraft(q("preset")) : null;
  const confirm = q("confirm") === "delete" ? await ownSchedule(db, kid.id, q("id")) : null;
  return {
    schedules: rows.map((s) => ({
      id: s.id,
      name: s.name,
      days: daysText(s.days),
      time: `${hhmm(s.start)}–${hhmm(s.end)}${s.end < s.start ? " (next day)" : ""}`,
      blocks: s.blocksAll
        ? "The whole phone"
        : [...s.categories.map((c) => catName.get(c) ?? c), ...s.apps.map((a) => appName.get(a) ?? a)].join(", "),
    })),
    apps: apps
      .filter((a) => a.packageName !== KIDS_APP_PACKAGE)
      .map((a) => ({ packageName: a.packageName, title: a.title, alwaysAllowed: allowed.has(a.packageName) }))
      .sort((a, b) => a.title.localeCompare(b.title)),
    categories,
    modal,
    draft,
    presets: PRESETS.map((p) => ({ key: p, name: SCHEDULE_PRESETS[p].name })),
    confirm: confirm ? { id: confirm.id, name: confirm.name } : null,
  };
}

interface Ctx {
  request: Request;
  context: AppLoadContext;
  parent: Parent;
  kid: { id: string };
  deviceId: string;
}

export async function saveSchedule({ request, context, parent, kid }: Ctx, form: FormData) {
  const submission = parseWithZod(form, { schema: scheduleFormSchema });
  if (submission.status !== "success") return json({ intent: "save" as const, result: submission.reply() }, { status: 400 });
  const { id } = submission.value;
  if (id) await ownSchedule(context.services.db, kid.id, id);
  const back = hrefWith(request, { modal: null, id: null, preset: null });
  return callDevice(
    context,
    parent,
    hrefWith(request, {}),
    (d) => d.time.saveSchedule({ profileId: kid.id, ...(id ? { id } : {}), schedule: toScheduleFields(submission.value) }),
    "Saved.",
    back,
  );
}

export async function deleteSchedule({ request, context, parent, kid }: Ctx, form: FormData) {
  const s = await ownSchedule(context.services.db, kid.id, String(form.get("id") ?? ""));
  return callDevice(
    context,
    parent,
    hrefWith(request, { confirm: null, id: null }),
    (d) => d.time.deleteSchedule({ profileId: kid.id, id: s.id }),
    "The schedule is deleted.",
  );
}

/** The "Always allowed" checkboxes: only the kid's own apps count; each change is one procedure call. */
export async function saveAlwaysAllowed({ request, context, parent, kid, deviceId }: Ctx, form: FormData) {
  const db = context.services.db;
  const [apps, rules] = await Promise.all([listKidApps(db, deviceId), listTimeRules(db, kid.id)]);
  const wanted = new Set(form.getAll("allowed").map(String));
  const now = new Set(rules.filter((r) => r.scope === "app" && r.alwaysAllowed).map((r) => r.target));
  const changes = apps.filter((a) => wanted.has(a.packageName) !== now.has(a.packageName));
  const back = hrefWith(request, {});
  if (changes.length === 0) return redirectWithToast(back, { type: "info", message: "Nothing changed." });
  return callDevice(context, parent, back, async (d) => {
    for (const a of changes)
      await d.time.setAlwaysAllowed({ profileId: kid.id, packageName: a.packageName, allowed: wanted.has(a.packageName) });
    return { respones_msg: "Always allowed apps are saved." };
  });
}
