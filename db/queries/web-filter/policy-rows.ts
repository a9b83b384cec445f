import { DEFAULT_TIME_ZONE, safeTimeZone } from "../../../core/zoned-time";
import type { DB } from "../../index";
import type { YoutubeMode } from "../../schema-web-filter";
import { parseHostList, youtubeMode } from "./settings";

/**
 * Everything the resolver's policy needs of the kids with a live filter id, read in a few bulk queries (all kids, or
 * one kid on refresh), for web-filter/policy/db-policy.ts to hold in memory.
 */

export interface FilterCategoryRule {
  categoryId: string;
  /** The time rules' window it is blocked in (kid_schedules), or null = always. */
  schedule: { days: number[]; start: number; end: number } | null;
}

export interface FilterPolicyRow {
  profileId: string;
  filterId: string;
  timeZone: string;
  safeSearch: boolean;
  youtube: YoutubeMode;
  allowList: string[];
  categories: FilterCategoryRule[];
  /** The kid's /browser-logs blocked entries (every phone of the kid), as stored (`host[:port][/path]`). */
  blockedUrls: string[];
}

function days(text: string): number[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((d): d is number => Number.isInteger(d) && d >= 0 && d <= 6) : [];
  } catch {
    return [];
  }
}

/** The live filters (not revoked) of every kid, or of one kid (empty when it has none). */
export async function loadFilterPolicyRows(db: DB, profileId?: string): Promise<FilterPolicyRow[]> {
  const settings = await db
    .selectFrom("web_filter_settings")
    .innerJoin("kid_profiles", "kid_profiles.id", "web_filter_settings.profile_id")
    .innerJoin("parents", "parents.id", "kid_profiles.parent_id")
    .select([
      "web_filter_settings.profile_id",
      "web_filter_settings.filter_id",
      "web_filter_settings.safe_search",
      "web_filter_settings.youtube_mode",
      "web_filter_settings.allow_list",
      "parents.time_zone",
    ])
    .where("web_filter_settings.revoked_at", "is", null)
    .$if(profileId !== undefined, (q) => q.where("web_filter_settings.profile_id", "=", profileId!))
    .execute();
  if (!settings.length) return [];
  const [categories, blocked] = await Promise.all([
    db
      .selectFrom("web_filter_blocked_categories as b")
      .leftJoin("kid_schedules as s", "s.id", "b.schedule_id")
      .select(["b.profile_id", "b.category_id", "s.days", "s.start_minute", "s.end_minute"])
      .$if(profileId !== undefined, (q) => q.where("b.profile_id", "=", profileId!))
      .orderBy("b.category_id")
      .execute(),
    db
      .selectFrom("browser_logs")
      .innerJoin("devices", "devices.id", "browser_logs.device_id")
      .select(["devices.profile_id", "browser_logs.url"])
      .distinct()
      .where("browser_logs.is_blocked", "=", 1)
      .$if(profileId !== undefined, (q) => q.where("devices.profile_id", "=", profileId!))
      .execute(),
  ]);
  const byKid = new Map<string, FilterPolicyRow>(
    settings.map((s) => [
      s.profile_id,
      {
        profileId: s.profile_id,
        filterId: s.filter_id,
        timeZone: safeTimeZone(s.time_zone ?? DEFAULT_TIME_ZONE),
        safeSearch: Number(s.safe_search) === 1,
        youtube: youtubeMode(s.youtube_mode),
        allowList: parseHostList(s.allow_list),
        categories: [],
        blockedUrls: [],
      },
    ]),
  );
  for (const c of categories)
    byKid.get(c.profile_id)?.categories.push({
      categoryId: c.category_id,
      schedule: c.days === null ? null : { days: days(c.days), start: Number(c.start_minute), end: Number(c.end_minute) },
    });
  for (const b of blocked) byKid.get(b.profile_id)?.blockedUrls.push(b.url);
  for (const row of byKid.values()) row.blockedUrls.sort();
  return [...byKid.values()];
}
