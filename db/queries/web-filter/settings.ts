import { randomBytes } from "node:crypto";
import type { DB } from "../../index";
import type { YoutubeMode } from "../../schema-web-filter";

/**
 * A kid's web filter settings (issue 54 item 2): the phone's filter id and the parent's switches. The resolver never
 * reads these per lookup: web-filter/policy/db-policy.ts loads them into memory (policy-rows.ts) and is refreshed.
 */

export const YOUTUBE_MODES: readonly YoutubeMode[] = ["off", "moderate", "strict"];
const FILTER_ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const FILTER_ID_LENGTH = 20;

/** A random filter id: 20 of [a-z0-9] (~103 bits), a valid DNS label, so `<id>.<DNS_FILTER_DOMAIN>` is a hostname. */
export function newFilterId(): string {
  let out = "";
  // 252 = 7 × 36: bytes at or above it are dropped, so every character is equally likely.
  while (out.length < FILTER_ID_LENGTH)
    for (const b of randomBytes(32)) if (b < 252 && out.length < FILTER_ID_LENGTH) out += FILTER_ID_ALPHABET[b % 36];
  return out;
}

export const FILTER_ID_PATTERN = /^[a-z0-9]{16,24}$/;

export interface BlockedCategory {
  categoryId: string;
  /** A kid_schedules id: blocked only inside that window; null = always. */
  scheduleId: string | null;
}

export interface WebFilterSettings {
  /** null until a filter id was ensured, or while it is revoked. */
  filterId: string | null;
  safeSearch: boolean;
  youtube: YoutubeMode;
  allowList: string[];
  blockedCategories: BlockedCategory[];
}

export function parseHostList(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

export const youtubeMode = (v: string): YoutubeMode => ((YOUTUBE_MODES as readonly string[]).includes(v) ? (v as YoutubeMode) : "off");

/** Hosts as the filter matches them: trimmed, lower case, without a trailing dot, each once, sorted. */
export function normaliseHosts(hosts: readonly string[]): string[] {
  return [...new Set(hosts.map((h) => h.trim().toLowerCase().replace(/\.+$/, "")).filter(Boolean))].sort();
}

/** The kid's settings; the defaults (nothing on) when none were saved. */
export async function readWebFilterSettings(db: DB, profileId: string): Promise<WebFilterSettings> {
  const [row, blocked] = await Promise.all([
    db.selectFrom("web_filter_settings").selectAll().where("profile_id", "=", profileId).executeTakeFirst(),
    db
      .selectFrom("web_filter_blocked_categories")
      .select(["category_id", "schedule_id"])
      .where("profile_id", "=", profileId)
      .orderBy("category_id")
      .execute(),
  ]);
  return {
    filterId: row && !row.revoked_at ? row.filter_id : null,
    safeSearch: Number(row?.safe_search ?? 0) === 1,
    youtube: youtubeMode(row?.youtube_mode ?? "off"),
    allowList: parseHostList(row?.allow_list ?? "[]"),
    blockedCategories: blocked.map((b) => ({ categoryId: b.category_id, scheduleId: b.schedule_id })),
  };
}

/** The kid's filter id, made when there is none or the last one was revoked (a revoked id is never given again). */
export async function ensureFilterId(db: DB, profileId: string, now: Date = new Date()): Promise<string> {
  const ts = now.toISOString();
  await db
    .insertInto("web_filter_settings")
    .values({ profile_id: profileId, filter_id: newFilterId(), created_at: ts, updated_at: ts })
    .onConflict((oc) => oc.column("profile_id").doNothing())
    .execute();
  await db
    .updateTable("web_filter_settings")
    .set({ filter_id: newFilterId(), revoked_at: null, updated_at: ts })
    .where("profile_id", "=", profileId)
    .where("revoked_at", "is not", null)
    .execute();
  const row = await db.selectFrom("web_filter_settings").select("filter_id").where("profile_id", "=", profileId).executeTakeFirstOrThrow();
  return row.filter_id;
}

/**
 * Every kid gets a live filter id (start-up of a process serving the filter; idempotent): kids without a row get one
 * in batches, a kid whose last id was revoked a new one (ensureFilterId). Returns how many ids were made.
 */
export async function ensureFilterIdsForAllKids(db: DB, now: Date = new Date(), batch = 500): Promise<number> {
  const ts = now.toISOString();
  const missing = await db
    .selectFrom("kid_profiles")
    .leftJoin("web_filter_settings", "web_filter_settings.profile_id", "kid_profiles.id")
    .select(["kid_profiles.id", "web_filter_settings.revoked_at"])
    .where((eb) => eb.or([eb("web_filter_settings.profile_id", "is", null), eb("web_filter_settings.revoked_at", "is not", null)]))
    .execute();
  const fresh = missing.filter((k) => k.revoked_at === null).map((k) => k.id);
  for (let i = 0; i < fresh.length; i += batch)
    await db
      .insertInto("web_filter_settings")
      .values(fresh.slice(i, i + batch).map((id) => ({ profile_id: id, filter_id: newFilterId(), created_at: ts, updated_at: ts })))
      .onConflict((oc) => oc.column("profile_id").doNothing())
      .execute();
  for (const k of missing) if (k.revoked_at !== null) await ensureFilterId(db, k.id, now);
  return missing.length;
}

/** Revokes the kid's filter id (a phone replaced or removed): the resolver refuses it from its next refresh. */
export async function revokeFilterId(db: DB, profileId: string, now: Date = new Date()): Promise<void> {
  const ts = now.toISOString();
  await db
    .updateTable("web_filter_settings")
    .set({ revoked_at: ts, updated_at: ts })
    .where("profile_id", "=", profileId)
    .where("revoked_at", "is", null)
    .execute();
}

/**
 * A kid's phone was replaced or removed (device-service/unenroll.ts): the kid's filter id is revoked and a new one
 * made at once, so a phone that left the family but still has the old Private DNS hostname is refused, and the kid's
 * phones get the new hostname (decision 015). Run it in the transaction that removes the phone. Answers the new id,
 * or null when the kid has no filter id (the filter never made one: nothing to revoke).
 */
export async function renewFilterId(db: DB, profileId: string, now: Date = new Date()): Promise<string | null> {
  const row = await db.selectFrom("web_filter_settings").select("profile_id").where("profile_id", "=", profileId).executeTakeFirst();
  if (!row) return null;
  await revokeFilterId(db, profileId, now);
  return ensureFilterId(db, profileId, now);
}

/** The kid a live (not revoked) filter id belongs to. */
export async function findKidByFilterId(db: DB, filterId: string): Promise<string | undefined> {
  if (!FILTER_ID_PATTERN.test(filterId)) return undefined;
  const row = await db
    .selectFrom("web_filter_settings")
    .select("profile_id")
    .where("filter_id", "=", filterId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  return row?.profile_id;
}

export type WebFilterChanges = Partial<Omit<WebFilterSettings, "filterId">>;

/**
 * Saves the given switches (others kept); a kid without a row gets one with a filter id, a revoked id stays revoked
 * (only ensureFilterId gives a new one). A category's schedule must be one of this kid's (else it throws and nothing
 * is saved).
 */
export async function updateWebFilterSettings(db: DB, profileId: string, changes: WebFilterChanges, now: Date = new Date()): Promise<void> {
  const ts = now.toISOString();
  await db
    .insertInto("web_filter_settings")
    .values({ profile_id: profileId, filter_id: newFilterId(), created_at: ts, updated_at: ts })
    .onConflict((oc) => oc.column("profile_id").doNothing())
    .execute();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("web_filter_settings")
      .set({
        ...(changes.safeSearch !== undefined && { safe_search: changes.safeSearch ? 1 : 0 }),
        ...(changes.youtube !== undefined && { youtube_mode: youtubeMode(changes.youtube) }),
        ...(changes.allowList !== undefined && { allow_list: JSON.stringify(normaliseHosts(changes.allowList)) }),
        updated_at: ts,
      })
      .where("profile_id", "=", profileId)
      .execute();
    if (changes.blockedCategories === undefined) return;
    const own = new Set(
      (await trx.selectFrom("kid_schedules").select("id").where("profile_id", "=", profileId).execute()).map((r) => r.id),
    );
    const foreign = changes.blockedCategories.find((b) => b.scheduleId !== null && !own.has(b.scheduleId));
    if (foreign) throw new Error("a category's schedule must be one of the kid's schedules");
    await trx.deleteFrom("web_filter_blocked_categories").where("profile_id", "=", profileId).execute();
    const rows = [...new Map(changes.blockedCategories.map((b) => [b.categoryId, b])).values()];
    if (rows.length)
      await trx
        .insertInto("web_filter_blocked_categories")
        .values(rows.map((b) => ({ profile_id: profileId, category_id: b.categoryId, schedule_id: b.scheduleId, updated_at: ts })))
        .execute();
  });
}
