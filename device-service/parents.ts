import type { DB } from "../db/index";
import { coalesce, groupBy, type Coalesced } from "./coalesce";

/** Every parent who may see a kid: the owner and accepted delegates (who have an account). */
export function parentIdsForKid(db: DB, profileId: string): Promise<string[]> {
  let read = readers.get(db);
  if (!read) {
    read = coalesce((ids) => parentIdsForKids(db, ids));
    readers.set(db, read);
  }
  return read(profileId).then((ids) => ids ?? []);
}

/**
 * One reader per database handle: every status and upload a phone sends tells the kid's parents, and in a
 * reconnect storm thousands of these reads are asked for at once; they go together (socket/coalesce.ts).
 */
const readers = new WeakMap<DB, Coalesced<string[]>>();

/** The owner and the accepted delegates of each kid, in one round trip. */
async function parentIdsForKids(db: DB, profileIds: string[]): Promise<Map<string, string[]>> {
  const rows = await db
    .selectFrom("kid_profiles")
    .select(["id as profile_id", "parent_id as id"])
    .where("id", "in", profileIds)
    .unionAll(
      db
        .selectFrom("delegation_kids")
        .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
        .innerJoin("parents", "parents.email", "delegations.delegate_email")
        .select(["delegation_kids.profile_id as profile_id", "parents.id as id"])
        .where("delegation_kids.profile_id", "in", profileIds)
        .where("delegations.status", "=", "Accepted"),
    )
    .execute();
  return new Map([...groupBy(rows, (r) => r.profile_id)].map(([k, rs]) => [k, [...new Set(rs.map((r) => r.id))]]));
}
