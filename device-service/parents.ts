import type { DB } from "../db/index";

/** Every parent who may see a kid: the owner and accepted delegates (who have an account). */
export async function parentIdsForKid(db: DB, profileId: string): Promise<string[]> {
  const owner = await db.selectFrom("kid_profiles").select("parent_id").where("id", "=", profileId).executeTakeFirst();
  const delegates = await db
    .selectFrom("delegation_kids")
    .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
    .innerJoin("parents", "parents.email", "delegations.delegate_email")
    .select("parents.id")
    .where("delegation_kids.profile_id", "=", profileId)
    .where("delegations.status", "=", "Accepted")
    .execute();
  return [...new Set([...(owner ? [owner.parent_id] : []), ...delegates.map((d) => d.id)])];
}
