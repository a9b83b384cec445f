import { birthMonth, birthYear, kidName } from "../../core/values";
import type { DB } from "../index";
import { dbDialect } from "../dialect";
import { executeCompiledOnce, readCompiledNow } from "../compiled";
import { kidAccessOfParent, kidAccessOfSession, type KidAccess } from "./access";
import { liveParentOf, sessionIdOf, sessionParentQuery, touched, type SessionPolicy } from "./sessions";
import { jsonArrayFrom } from "kysely/helpers/postgres";
import { newId, nowIso } from "../../core/ids.server";

/** A parent's new kid profile (before any phone is added). */
export async function createKidProfile(
  db: DB,
  parentId: string,
  kid: { name: string; birthMonth: number; birthYear: number },
): Promise<string> {
  // The same value rules as the form and the device service (core/values.ts); a caller that skipped them fails here.
  const name = kidName.parse(kid.name);
  birthMonth.parse(kid.birthMonth);
  birthYear().parse(kid.birthYear);
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("kid_profiles")
    .values({
      id,
      parent_id: parentId,
      name,
      birth_month: kid.birthMonth,
      birth_year: kid.birthYear,
      picture_mime: null,
      picture: null,
      created_at: now,
      updated_at: now,
    })
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
 * findLiveSessionParent and listKidsForParent (with each listed kid's `view_rev`) at once; the page cache asks this
 * on every dashboard view. On PostgreSQL one statement and one row: the session's row, its parent, and the kids list
 * read through that row, as a JSON array (one round trip and one driver's work where there were two: a repeat
 * view's server CPU 0.50 → 0.39 ms; one row, not the parent's columns on each kid's: 118 → 74 µs a read). On
 * SQLite, where a statement costs no round trip, the two plain statements one after the other: one statement cost
 * more there (the list materialised in a join, or built as JSON).
 * Undefined when the token names no live session (the same rules as findLiveSessionParent, idle touch included).
 */
export async function findLiveSessionWithKids(
  db: DB,
  token: string,
  policy: SessionPolicy,
  opts: { pageSize?: number } = {},
  now: Date = new Date(),
) {
  const id = sessionIdOf(token);
  if (!id) return undefined;
  await touched(id); // this process's idle-clock touch of the session, if one is in flight (sessions.ts)
  if (dbDialect(db) === "sqlite") {
    // The session's row says whether any kid is delegated to the parent and accepted; most parents have none, and
    // their list then reads only their own kids (the delegated side of the rule cost a cached view 12 of 38 µs).
    // Both reads on the reader connection where there is one (a file): at once, committed rows only (db/index.ts).
    const sessionKey = JSON.stringify(["live-session-delegated", id]);
    const sessionRead = () =>
      sessionParentQuery(db, id).select((eb) =>
        eb
          .exists(
            eb
              .selectFrom("delegations")
              .select("delegations.id")
              .whereRef("delegations.delegate_email", "=", "parents.email")
              .where("delegations.status", "=", "Accepted"),
          )
          .as("has_delegated"),
      );
    const [row] = readCompiledNow(db, sessionKey, sessionRead) ?? (await executeCompiledOnce(db, sessionKey, sessionRead));
    if (!row) return undefined;
    const { has_delegated, ...rest } = row;
    const parent = await liveParentOf(db, rest, policy, now);
    if (!parent) return undefined;
    const access: KidAccess = has_delegated ? kidAccessOfParent(db, parent) : { own: parent.id, delegated: null };
    const key = JSON.stringify(["kids-for-parent-revs", parent.id, parent.email, opts.pageSize ?? 50, Boolean(has_delegated)]);
    const kidsRead = () => kidsListQuery(db, access, opts).select("kid_profiles.view_rev");
    const rows = readCompiledNow(db, key, kidsRead) ?? (await executeCompiledOnce(db, key, kidsRead));
    return { parent, kids: toKidsList(rows, parent.id), viewRevs: new Map(rows.map((r) => [r.id, r.view_rev])) };
  }
  const key = JSON.stringify(["live-session-kids", id, opts.pageSize ?? 50]);
  const [row] = await executeCompiledOnce(db, key, () =>
    sessionParentQuery(db, id)
      // One row: the kids as one JSON array (in the list's order) instead of the parent's columns on every kid's row.
      .select(jsonArrayFrom(kidsListQuery(db, kidAccessOfSession(db, id), opts).select("kid_profiles.view_rev")).as("kids")),
  );
  if (!row) return undefined;
  const { kids: rows, ...rest } = row;
  const parent = await liveParentOf(db, rest, policy, now);
  if (!parent) return undefined;
  return { parent, kids: toKidsList(rows, parent.id), viewRevs: new Map(rows.map((r) => [r.id, r.view_rev])) };
}

/**
 * The switcher's query over the kids `access` names (db/queries/access.ts). SQLite reads them as `parent_id = own
 * OR id IN delegated`, each side by its index, where `id IN (own UNION delegated)` built and sorted a temporary
 * b-tree per side: 120 µs against 45 µs a run with the CPU's caches cold, as they are between two requests.
 * PostgreSQL cannot use an index for an OR with a subquery (it would scan every kid), so it keeps the UNION.
 */
function kidsListQuery(db: DB, access: KidAccess, opts: { pageSize?: number; search?: string }) {
  const q = db
    .selectFrom("kid_profiles")
    .leftJoin("devices", (j) => j.onRef("devices.profile_id", "=", "kid_profiles.id").on("devices.unenrolled_at", "is", null))
    .leftJoin("device_status", "device_status.device_id", "devices.id")
    .innerJoin("parents as owner", "owner.id", "kid_profiles.parent_id")
    .select([
      "kid_profiles.id",
      "kid_profiles.name",
      "kid_profiles.parent_id",
      "devices.serial_number",
      "device_status.online",
      "device_status.updated_at as last_seen",
      "owner.name as owner_name",
    ])
    .where((eb) =>
      access.delegated === null
        ? eb("kid_profiles.parent_id", "=", access.own)
        : dbDialect(db) === "sqlite"
          ? eb.or([eb("kid_profiles.parent_id", "=", access.own), eb("kid_profiles.id", "in", access.delegated)])
          : eb(
              "kid_profiles.id",
              "in",
              eb
                .selectFrom("kid_profiles")
                .select("kid_profiles.id")
                .where("kid_profiles.parent_id", "=", access.own)
                .union(access.delegated),
            ),
    )
    .orderBy("kid_profiles.created_at")
    .orderBy("kid_profiles.name")
    .orderBy("devices.created_at")
    .limit(opts.pageSize ?? 50);
  return opts.search ? q.where("kid_profiles.name", "like", `%${opts.search.replace(/[%_]/g, "")}%`) : q;
}

type KidRow = {
  id: string;
  name: string;
  parent_id: string;
  serial_number: string | null;
  online: number | boolean | null;
  last_seen: string | null;
  owner_name: string;
};

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
