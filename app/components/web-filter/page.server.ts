import type { AppServices } from "~/load-context";
import { domainCountsByCategory, listWebFilterCategories } from "#db/queries/web-filter/categories";
import { ensureFilterId, readWebFilterSettings } from "#db/queries/web-filter/settings";
import { listSchedules } from "#db/queries/time-rules/schedules";
import { cleanDraft, draftFromUrl, type WebFilterDraft } from "~/rules/web-filter";

/** What the Web Filter page shows of a kid (issue 54 item 4), read by its loader and, in part, by its action. */

export interface WebFilterChoices {
  categories: { id: string; name: string; description: string; domains: number }[];
  schedules: { id: string; name: string }[];
}

export async function webFilterChoices(services: AppServices, profileId: string): Promise<WebFilterChoices> {
  const { db, webFilter } = services;
  const [categories, schedules, counts] = await Promise.all([
    listWebFilterCategories(db),
    listSchedules(db, profileId),
    // A process holding the lists answers from memory; counting a large list in the database is slow (docs/web-filter-lists.md).
    webFilter ? Promise.resolve(Object.fromEntries(webFilter.countsByCategory())) : domainCountsByCategory(db),
  ]);
  return {
    categories: categories.map((c) => ({ ...c, domains: counts[c.id] ?? 0 })),
    schedules: schedules.map((s) => ({ id: s.id, name: s.name })),
  };
}

/** The kid's saved settings as a draft (known categories and schedules only). */
export async function savedDraft(services: AppServices, profileId: string, choices: WebFilterChoices): Promise<WebFilterDraft> {
  const s = await readWebFilterSettings(services.db, profileId);
  return cleanDraft(
    { blocked: s.blockedCategories, safeSearch: s.safeSearch, youtube: s.youtube, allowList: s.allowList },
    choices.categories.map((c) => c.id),
    choices.schedules.map((c) => c.id),
  );
}

export async function loadWebFilterPage(services: AppServices, profileId: string, params: URLSearchParams) {
  const choices = await webFilterChoices(services, profileId);
  const saved = await savedDraft(services, profileId, choices);
  const ids = [choices.categories.map((c) => c.id), choices.schedules.map((c) => c.id)] as const;
  const { webFilter } = services;
  // The phone's own hostname: the filter knows whose lookup it is by its first label (docs/web-filter.md).
  const filterId = webFilter ? await ensureFilterId(services.db, profileId) : null;
  return {
    ...choices,
    saved,
    draft: cleanDraft(draftFromUrl(params, saved), ...ids),
    privateDns: webFilter && filterId ? { hostname: webFilter.hostname(filterId) } : null,
  };
}
