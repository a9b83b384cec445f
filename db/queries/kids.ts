import { birthMonth, birthYear, kidName } from "../../core/values";
import { sqliteHandleOf, type DB } from "../index";
import { executeCompiledOnce } from "../compiled";
import { kidAccessOfParent, kidAccessOfSession, type KidAccess } from "./access";
import { newId, nowIso } from "../../core/ids.server";

/** A parent's new kid profile (before any phone is added). */
export async function createKidProfile(db: DB, parentId: string, kid: { name: string; birthMonth: number; birthYear: number }): Promise<string> {
  // The same value rules as the form and the device service (core/values.ts); a caller that skipped them fails here.
  const name = kidName.parse(kid.name);
  birthMonth.parse(kid.birthMonth);
  birthYear().parse(kid.birthYear);
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("kid_profiles")
    .values({ id, parent_id: parentId, name, birth_month: kid.birthMonth, birth_year: kid.birthYear, picture_mime: null, picture: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

export type PhoneState = "none" | "online" | "offline";

/**
 * The switcher's list: every kid the parent may see, with their first enrolled phone's serial number and state
 * (none, online, offline with when it was last seen) and whose kid it is. Removed phones do not count. Page size 50.
 */
export async function listKidsForParent(db: DB, parent: { id: string; email: string }, opts: { pageSize?: number; search?: string } = {}) {
  // Built and compiled once per parent, e-mail, page size and search: every input of the query.
  const key = JSON.stringify(["kids-for-parent", parent.id, parent.email, opts.pageSize ?? 50, opts.search ?? null]);
  const rows = await executeCompiledOnce(db, key, () => kidsListQuery(db, kidAccessOfParent(db, parent), opts));
  return toKidsList(rows, parent.id);
}

/**
 * listKidsForParent for the parent of a session (by its id, the token's hash), with each listed kid's `view_rev`,
 * in one statement that does not wait for the session's row: the page cache reads it beside the session check,
 * one round trip for both. Only meaningful once that check has found the session live and named `parentId`.
 */
export async function listKidsForSession(db: DB, sessionId: string, opts: { pageSize?: number } = {}) {
  const key = JSON.stringify(["kids-for-session", sessionId, opts.pageSize ?? 50]);
  const rows = await executeCompiledOnce(db, key, () => kidsListQuery(db, kidAccessOfSession(db, sessionId), opts).select("kid_profiles.view_rev"));
  return (parentId: string) => ({ kids: toKidsList(rows, parentId), viewRevs: new Map(rows.map((r) => [r.id, r.view_rev])) });
}

/**
 * The switcher's query over the kids `access` names (accessibleKidIds' rule). SQLite reads them as `parent_id = own
 * OR id IN delegated`, each side by its index, where `id IN (own UNION delegated)` built and sorted a temporary
 * b-tree per side: 120 µs against 45 µs a run with the CPU's caches cold, as they are between two requests
 * (docs/performance.md, session 15). PostgreSQL cannot use an index for an OR with a subquery (it would scan
 * every kid), so it keeps the UNION.
 */
function kidsListQuery(db: DB, access: KidAccess, opts: { pageSize?: number; search?: string }) {
  const q = db
    .selectFrom("kid_profiles")
    .leftJoin("devices", (j) => j.onRef("devices.profile_id", "=", "kid_profiles.id").on("devices.unenrolled_at", "is", null))
    .leftJoin("device_status", "device_status.device_id", "devices.id")
    .innerJoin("parents as owner", "owner.id", "kid_profiles.parent_id")
    .select(["kid_profiles.id", "kid_profiles.name", "kid_profiles.parent_id", "devices.serial_number", "device_status.online", "device_status.updated_at as last_seen", "owner.name as owner_name"])
    .where((eb) =>
      sqliteHandleOf(db)
        ? eb.or([eb("kid_profiles.parent_id", "=", access.own), eb("kid_profiles.id", "in", access.delegated)])
        : eb("kid_profiles.id", "in", eb.selectFrom("kid_profiles").select("kid_profiles.id").where("kid_profiles.parent_id", "=", access.own).union(access.delegated)),
    )
    .orderBy("kid_profiles.created_at")
    .orderBy("kid_profiles.name")
    .orderBy("devices.created_at")
    .limit(opts.pageSize ?? 50);
  return opts.search ? q.where("kid_profiles.name", "like", `%${opts.search.replace(/[%_]/g, "")}%`) : q;
}

type KidRow = { id: string; name: string; parent_id: string; serial_number: string | null; online: number | boolean | null; last_seen: string | null; owner_name: string };

/** One entry per kid (a kid with two phones lists once, with its first device). */
function toKidsList(rows: KidRow[], parentId: string) {
  const seen = new Set<string>();
  return rows
    .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
    .map((r) => ({
      id: r.id,
      name: r.name,
      serialNumber: r.serial_number,
      own: r.parent_id === parentId,
      ownerName: r.owner_name,
      phone: (r.serial_number == null ? "none" : r.online ? "online" : "offline") as PhoneState,
      lastSeen: r.serial_number == null ? null : (r.last_seen ?? null),
    }));
}
