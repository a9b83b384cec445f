import type { YoutubeMode } from "#db/schema-web-filter";

/**
 * The Web Filter page's draft (issue 54 item 4): what the switches, the radio group, the schedule choices and the
 * allow list say before Save. Without JavaScript it travels in the URL (`draft=1`, `block=<id>` or
 * `block=<id>@<schedule id>`, `safeSearch=on`, `youtube=…`, `allow=<host>`); the form posts the same fields.
 */

export const YOUTUBE_CHOICES: readonly { value: YoutubeMode; label: string }[] = [
  { value: "off", label: "Off" },
  { value: "moderate", label: "Moderate" },
  { value: "strict", label: "Strict" },
];

/** At most this many always-allowed sites per kid. */
export const ALLOW_LIST_MAX = 200;

export interface BlockedChoice {
  categoryId: string;
  /** One of the kid's schedules: blocked only then; null = always. */
  scheduleId: string | null;
}

export interface WebFilterDraft {
  blocked: BlockedChoice[];
  safeSearch: boolean;
  youtube: YoutubeMode;
  allowList: string[];
}

const isYoutube = (v: unknown): v is YoutubeMode => YOUTUBE_CHOICES.some((c) => c.value === v);

/** Sorted, each category once, only known categories and schedules (an unknown schedule becomes "always"). */
export function cleanDraft(d: WebFilterDraft, categoryIds: readonly string[], scheduleIds: readonly string[]): WebFilterDraft {
  const blocked = new Map<string, string | null>();
  for (const b of d.blocked)
    if (categoryIds.includes(b.categoryId) && !blocked.has(b.categoryId))
      blocked.set(b.categoryId, b.scheduleId && scheduleIds.includes(b.scheduleId) ? b.scheduleId : null);
  return {
    blocked: [...blocked]
      .map(([categoryId, scheduleId]) => ({ categoryId, scheduleId }))
      .sort((a, b) => a.categoryId.localeCompare(b.categoryId)),
    safeSearch: d.safeSearch,
    youtube: isYoutube(d.youtube) ? d.youtube : "off",
    allowList: [...new Set(d.allowList.map((h) => h.trim().toLowerCase()).filter(Boolean))].sort(),
  };
}

/** The draft in the URL, or the saved settings when the URL holds none. */
export function draftFromUrl(params: URLSearchParams, saved: WebFilterDraft): WebFilterDraft {
  if (params.get("draft") !== "1") return saved;
  return {
    blocked: params.getAll("block").map((v) => {
      const [categoryId, scheduleId] = v.split("@");
      return { categoryId: categoryId ?? "", scheduleId: scheduleId || null };
    }),
    safeSearch: params.get("safeSearch") === "on",
    youtube: isYoutube(params.get("youtube")) ? (params.get("youtube") as YoutubeMode) : "off",
    allowList: params.getAll("allow"),
  };
}

/** The draft as URL parameters (draftFromUrl reads them back). */
export function draftParams(d: WebFilterDraft): URLSearchParams {
  const p = new URLSearchParams({ draft: "1" });
  for (const b of d.blocked) p.append("block", b.scheduleId ? `${b.categoryId}@${b.scheduleId}` : b.categoryId);
  if (d.safeSearch) p.set("safeSearch", "on");
  p.set("youtube", d.youtube);
  for (const h of d.allowList) p.append("allow", h);
  return p;
}

/** The draft the page's form posted (hidden fields `block`, `schedule.<id>`, `safeSearchOn`, `allow`; radio `youtube`). */
export function draftFromForm(form: FormData): WebFilterDraft {
  const text = (v: FormDataEntryValue | null) => (typeof v === "string" ? v : "");
  return {
    blocked: form.getAll("block").map((v) => {
      const categoryId = text(v);
      const schedule = text(form.get(`schedule.${categoryId}`));
      return { categoryId, scheduleId: schedule && schedule !== "always" ? schedule : null };
    }),
    safeSearch: form.get("safeSearchOn") === "on",
    youtube: isYoutube(form.get("youtube")) ? (form.get("youtube") as YoutubeMode) : "off",
    allowList: form.getAll("allow").map(text),
  };
}

/** The draft with one category blocked (always, or keeping its schedule) or unblocked. */
export function withCategory(d: WebFilterDraft, categoryId: string, blocked: boolean): WebFilterDraft {
  const others = d.blocked.filter((b) => b.categoryId !== categoryId);
  const kept = d.blocked.find((b) => b.categoryId === categoryId);
  return { ...d, blocked: blocked ? [...others, kept ?? { categoryId, scheduleId: null }] : others };
}

export const sameDraft = (a: WebFilterDraft, b: WebFilterDraft) => JSON.stringify(a) === JSON.stringify(b);

const list = (xs: string[]) => (xs.length <= 2 ? xs.join(" and ") : `${xs.length} sites`);

/** What Save changed, in words for its toast ("Web filter saved: Social networks blocked; SafeSearch on."). */
export function describeChanges(
  saved: WebFilterDraft,
  next: WebFilterDraft,
  names: { categories: Record<string, string>; schedules: Record<string, string> },
): string {
  const parts: string[] = [];
  const when = (s: string | null) => (s ? ` during ${names.schedules[s] ?? "its schedule"}` : "");
  const before = new Map(saved.blocked.map((b) => [b.categoryId, b.scheduleId]));
  const after = new Map(next.blocked.map((b) => [b.categoryId, b.scheduleId]));
  const ids = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const id of ids) {
    const name = names.categories[id] ?? id;
    if (!after.has(id)) parts.push(`${name} unblocked`);
    else if (!before.has(id)) parts.push(`${name} blocked${when(after.get(id)!)}`);
    else if (before.get(id) !== after.get(id))
      parts.push(`${name} now blocked ${after.get(id) ? when(after.get(id)!).trim() : "at all times"}`);
  }
  if (saved.safeSearch !== next.safeSearch) parts.push(`SafeSearch ${next.safeSearch ? "on" : "off"}`);
  if (saved.youtube !== next.youtube) parts.push(`YouTube Restricted Mode ${next.youtube}`);
  const added = next.allowList.filter((h) => !saved.allowList.includes(h));
  const removed = saved.allowList.filter((h) => !next.allowList.includes(h));
  if (added.length) parts.push(`${list(added)} always allowed`);
  if (removed.length) parts.push(`${list(removed)} no longer always allowed`);
  return parts.length ? `Web filter saved: ${parts.join("; ")}.` : "Web filter saved: nothing changed.";
}
