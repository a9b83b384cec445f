import type { Transaction } from "kysely";
import type { DB } from "../db/index";
import { newId, nowIso } from "../core/ids.server";
import { cleanPhoneText } from "../core/phone-text";
import type { Database } from "../db/schema";
import { blockedBy, normaliseUrl, openHref } from "./policy/urls";

/**
 * Browser logs: one row per (phone, address, day). A row is an entry of the blocked list when is_blocked = 1
 * (set by a parent, for every day); visits reported by the phone count on the row of their day. What a row
 * shows as blocked is "is an entry, or covered by one" (device-service/policy/urls.ts).
 */

/** Rows one day's list reads at most (a day of browsing; the page searches within them). */
export const BROWSER_LOG_DAY_CAP = 2000;

export type BrowserStatusFilter = "block" | "unblock";

export interface BrowserLogRow {
  id: string;
  url: string;
  /** Where the address opens: with http:// added when it has no scheme. */
  href: string;
  isBlocked: boolean;
  /** The blocked entry that covers this address (itself when it is one), or null. */
  blockedBy: string | null;
  visits: number;
  blockedVisits: number;
  created_at: string;
  updated_at: string;
}

export async function blockedEntries(db: DB | Transaction<Database>, deviceId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("browser_logs")
    .select("url")
    .distinct()
    .where("device_id", "=", deviceId)
    .where("is_blocked", "=", 1)
    .orderBy("url")
    .execute();
  return rows.map((r) => r.url);
}

/** A visit the phone reported (allowed or blocked), counted on its day's row. Call once per message id. */
export async function recordVisit(
  trx: Transaction<Database>,
  deviceId: string,
  visit: { url: string; visitedAt: string; blocked?: boolean },
): Promise<void> {
  const url = normaliseUrl(visit.url) || visit.url.trim().slice(0, 2048);
  const day = new Date(visit.visitedAt).toISOString().slice(0, 10);
  // The phone says what it did; an older app that does not is judged by the current list.
  const blocked = visit.blocked ?? blockedBy(await blockedEntries(trx, deviceId), url) !== null;
  const ts = nowIso();
  await trx
    .insertInto("browser_logs")
    .values({
      id: newId(),
      device_id: deviceId,
      url,
      day,
      is_blocked: 0,
      visits: 1,
      blocked_visits: blocked ? 1 : 0,
      created_at: ts,
      updated_at: ts,
    })
    .onConflict((oc) =>
      oc.columns(["device_id", "url", "day"]).doUpdateSet((eb) => ({
        visits: eb("browser_logs.visits", "+", 1),
        blocked_visits: eb("browser_logs.blocked_visits", "+", blocked ? 1 : 0),
        updated_at: ts,
      })),
    )
    .execute();
}

export async function listBrowserLogs(
  db: DB,
  deviceId: string,
  q: { day: string; urlText?: string; status?: BrowserStatusFilter },
): Promise<BrowserLogRow[]> {
  const [rows, entries] = await Promise.all([
    db
      .selectFrom("browser_logs")
      .selectAll()
      .where("device_id", "=", deviceId)
      .where("day", "=", q.day)
      .orderBy("updated_at", "desc")
      .orderBy("id")
      .limit(BROWSER_LOG_DAY_CAP)
      .execute(),
    blockedEntries(db, deviceId),
  ]);
  const text = q.urlText?.trim().toLowerCase();
  return rows
    .map((r) => {
      const by = r.is_blocked === 1 ? r.url : blockedBy(entries, r.url);
      // Addresses stored before phone text was cleaned at ingest are shown cleaned (core/phone-text.ts).
      const url = cleanPhoneText(r.url);
      return {
        id: r.id,
        url,
        href: openHref(url),
        isBlocked: by !== null,
        blockedBy: by,
        visits: r.visits,
        blockedVisits: r.blocked_visits,
        created_at: r.created_at,
        updated_at: r.updated_at,
      };
    })
    .filter((r) => !text || r.url.toLowerCase().includes(text))
    .filter((r) => !q.status || r.isBlocked === (q.status === "block"));
}

/** A parent adds an address with a status: blocking makes today's row an entry; unblocking lifts the entry everywhere. */
export async function setAddressStatus(db: DB, deviceId: string, url: string, isBlocked: boolean): Promise<void> {
  const ts = nowIso();
  const day = ts.slice(0, 10);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("browser_logs")
      .values({
        id: newId(),
        device_id: deviceId,
        url,
        day,
        is_blocked: isBlocked ? 1 : 0,
        visits: 0,
        blocked_visits: 0,
        created_at: ts,
        updated_at: ts,
      })
      .onConflict((oc) => oc.columns(["device_id", "url", "day"]).doUpdateSet({ is_blocked: isBlocked ? 1 : 0, updated_at: ts }))
      .execute();
    if (!isBlocked)
      await trx
        .updateTable("browser_logs")
        .set({ is_blocked: 0, updated_at: ts })
        .where("device_id", "=", deviceId)
        .where("url", "=", url)
        .where("is_blocked", "=", 1)
        .execute();
  });
}

/**
 * The lock toggle on a row. Locking makes the row's address an entry. Unlocking lifts every entry that covers
 * the address (itself, or a broader one such as its host), so the phone lets it through; returns those entries.
 */
export async function toggleRow(
  db: DB,
  deviceId: string,
  id: string,
  isBlocked: boolean,
): Promise<{ url: string; lifted: string[] } | undefined> {
  const row = await db
    .selectFrom("browser_logs")
    .select(["id", "url"])
    .where("id", "=", id)
    .where("device_id", "=", deviceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const ts = nowIso();
  if (isBlocked) {
    await db.updateTable("browser_logs").set({ is_blocked: 1, updated_at: ts }).where("id", "=", row.id).execute();
    return { url: row.url, lifted: [] };
  }
  const lifted = (await blockedEntries(db, deviceId)).filter((e) => blockedBy([e], row.url) !== null);
  if (lifted.length)
    await db
      .updateTable("browser_logs")
      .set({ is_blocked: 0, updated_at: ts })
      .where("device_id", "=", deviceId)
      .where("url", "in", lifted)
      .where("is_blocked", "=", 1)
      .execute();
  return { url: row.url, lifted };
}

/** Unblock All: no entries left. Returns how many rows changed. */
export async function unblockAll(db: DB, deviceId: string): Promise<number> {
  const r = await db
    .updateTable("browser_logs")
    .set({ is_blocked: 0, updated_at: nowIso() })
    .where("device_id", "=", deviceId)
    .where("is_blocked", "=", 1)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The blocked entries of every phone of a kid: what the web filter blocks for the kid (db/queries/web-filter/policy-rows.ts). */
export async function kidBlockedEntries(db: DB, profileId: string): Promise<string[]> {
  const rows = await db
    .selectFrom("browser_logs")
    .innerJoin("devices", "devices.id", "browser_logs.device_id")
    .select("browser_logs.url")
    .distinct()
    .where("devices.profile_id", "=", profileId)
    .where("browser_logs.is_blocked", "=", 1)
    .orderBy("browser_logs.url")
    .execute();
  return rows.map((r) => r.url);
}

/**
 * Unblocking a visited site: every entry on any phone of the kid that covers the host (itself or a parent domain) is
 * lifted, as the web filter reads them all. Returns the entries lifted and the phones whose entries changed.
 */
export async function unblockSite(db: DB, profileId: string, host: string): Promise<{ lifted: string[]; deviceIds: string[] }> {
  const rows = await db
    .selectFrom("browser_logs")
    .innerJoin("devices", "devices.id", "browser_logs.device_id")
    .select(["browser_logs.device_id", "browser_logs.url"])
    .where("devices.profile_id", "=", profileId)
    .where("browser_logs.is_blocked", "=", 1)
    .execute();
  const covering = rows.filter((r) => blockedBy([r.url], host) !== null);
  if (!covering.length) return { lifted: [], deviceIds: [] };
  const ts = nowIso();
  const deviceIds = [...new Set(covering.map((r) => r.device_id))];
  const lifted = [...new Set(covering.map((r) => r.url))].sort();
  await db
    .updateTable("browser_logs")
    .set({ is_blocked: 0, updated_at: ts })
    .where("device_id", "in", deviceIds)
    .where("url", "in", lifted)
    .where("is_blocked", "=", 1)
    .execute();
  return { lifted, deviceIds };
}
