import { json } from "@remix-run/node";
import { updateWebFilterSettings } from "#db/queries/web-filter/settings";
import type { AppServices } from "~/load-context";
import { readSwitch } from "~/components/dashboard/switch-form";
import {
  ALLOW_LIST_MAX,
  cleanDraft,
  describeChanges,
  draftFromForm,
  draftParams,
  withCategory,
  type WebFilterDraft,
} from "~/rules/web-filter";
import { redirectWithToast } from "~/utils/toast.server";
import { parseAllowedHost } from "./host.server";
import { savedDraft, webFilterChoices } from "./page.server";

/**
 * The Web Filter page's one form: a switch, Add and Remove change the draft (kept in the URL: the page works without
 * JavaScript), Save stores it and tells every process to reload the kid's policy.
 */
export async function webFilterAction(services: AppServices, kid: { id: string; serialNumber: string }, form: FormData) {
  const choices = await webFilterChoices(services, kid.id);
  // Hosts come back from the form (and, without JavaScript, the URL): only valid ones are kept.
  const validHosts = (hosts: string[]) =>
    hosts.flatMap((h) => {
      const p = parseAllowedHost(h);
      return "host" in p ? [p.host] : [];
    });
  const clean = (d: WebFilterDraft) =>
    cleanDraft(
      { ...d, allowList: validHosts(d.allowList) },
      choices.categories.map((c) => c.id),
      choices.schedules.map((s) => s.id),
    );
  const page = new URLSearchParams({ profileId: kid.id, serialNumber: kid.serialNumber });
  const toDraft = (d: WebFilterDraft, at: string, message = "Not saved yet: press Save.") =>
    redirectWithToast(`/web-filter?${page}&${draftParams(clean(d))}#${at}`, { type: "info", message });
  const refused = (draft: WebFilterDraft, error: string) =>
    json({ error, draft: clean(draft), newHost: String(form.get("newHost") ?? "") }, { status: 400 });

  const draft = draftFromForm(form);
  for (const c of choices.categories) {
    const toggle = readSwitch(form, `cat.${c.id}`);
    if (toggle) return toDraft(withCategory(draft, c.id, toggle === "on"), `cat-${c.id}`);
  }
  const safeSearch = readSwitch(form, "safeSearch");
  if (safeSearch) return toDraft({ ...draft, safeSearch: safeSearch === "on" }, "search");
  const remove = form.get("remove");
  if (typeof remove === "string") {
    return toDraft(
      { ...draft, allowList: draft.allowList.filter((h) => h !== remove) },
      "allow",
      `${remove} removed. Not saved yet: press Save.`,
    );
  }
  switch (form.get("intent")) {
    case "add": {
      const parsed = parseAllowedHost(String(form.get("newHost") ?? ""));
      if ("error" in parsed) return refused(draft, parsed.error);
      if (draft.allowList.includes(parsed.host)) return toDraft(draft, "allow", `${parsed.host} is already on the list.`);
      if (draft.allowList.length >= ALLOW_LIST_MAX)
        return refused(draft, `The list holds at most ${ALLOW_LIST_MAX} sites: remove one before adding another.`);
      return toDraft(
        { ...draft, allowList: [...draft.allowList, parsed.host] },
        "allow",
        `${parsed.host} added. Not saved yet: press Save.`,
      );
    }
    case "save": {
      const next = clean(draft);
      const saved = await savedDraft(services, kid.id, choices);
      await updateWebFilterSettings(services.db, kid.id, {
        safeSearch: next.safeSearch,
        youtube: next.youtube,
        allowList: next.allowList,
        blockedCategories: next.blocked,
      });
      await services.webFilter?.kidChanged(kid.id);
      const names = {
        categories: Object.fromEntries(choices.categories.map((c) => [c.id, c.name])),
        schedules: Object.fromEntries(choices.schedules.map((s) => [s.id, s.name])),
      };
      return redirectWithToast(`/web-filter?${page}`, { type: "success", message: describeChanges(saved, next, names) });
    }
    default:
      throw new Response("Unknown action.", { status: 400 });
  }
}
