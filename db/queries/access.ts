import type { DB } from "../index";

/**
 * Every kid a parent may see and change: their own, and those delegated to their e-mail and accepted. In two parts,
 * for a query over `kid_profiles` that filters by them (the switcher's list, db/queries/kids.ts): `own`, the parent's
 * id (a value, or a subquery through the session's row), and `delegated`, the ids of the kids delegated and accepted.
 * A kid is the parent's when `parent_id = own` or its id is in `delegated`.
 */
export interface KidAccess {
  own: string | ReturnType<typeof sessionParentId>;
  delegated: ReturnType<typeof delegatedToEmail> | ReturnType<typeof delegatedThroughSession>;
}

export function kidAccessOfParent(db: DB, parent: { id: string; email: string }): KidAccess {
  return { own: parent.id, delegated: delegatedToEmail(db, parent.email) };
}

export function kidAccessOfSession(db: DB, sessionId: string): KidAccess {
  return { own: sessionParentId(db, sessionId), delegated: delegatedThroughSession(db, sessionId) };
}

const sessionParentId = (db: DB, sessionId: string) => db.selectFrom("sessions").select("sessions.parent_id").where("sessions.id", "=", sessionId);

const delegatedToEmail = (db: DB, email: string) =>
  db
    .selectFrom("delegation_kids")
    .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
    .select("delegation_kids.profile_id as id")
    .where("delegations.delegate_email", "=", email)
    .where("delegations.status", "=", "Accepted");

const delegatedThroughSession = (db: DB, sessionId: string) =>
  db
    .selectFrom("sessions")
    .innerJoin("parents", "parents.id", "sessions.parent_id")
    .innerJoin("delegations", "delegations.delegate_email", "parents.email")
    .innerJoin("delegation_kids", "delegation_kids.delegation_id", "delegations.id")
    .select("delegation_kids.profile_id as id")
    .where("sessions.id", "=", sessionId)
    .where("delegations.status", "=", "Accepted");

export async function canAccessKid(db: DB, parent: { id: string; email: string }, profileId: string): Promise<boolean> {
  const own = await db
    .selectFrom("kid_profiles")
    .select("id")
    .where("id", "=", profileId)
    .where("parent_id", "=", parent.id)
    .executeTakeFirst();
  if (own) return true;
  const delegated = await db
    .selectFrom("delegation_kids")
    .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
    .select("delegation_kids.profile_id")
    .where("delegation_kids.profile_id", "=", profileId)
    .where("delegations.delegate_email", "=", parent.email)
    .where("delegations.status", "=", "Accepted")
    .executeTakeFirst();
  return Boolean(delegated);
}

/** A device the parent may act on, looked up by serial number, or undefined. */
export async function findAccessibleDevice(db: DB, parent: { id: string; email: string }, serialNumber: string) {
  const device = await db.selectFrom("devices").selectAll().where("serial_number", "=", serialNumber).executeTakeFirst();
  if (!device) return undefined;
  return (await canAccessKid(db, parent, device.profile_id)) ? device : undefined;
}
