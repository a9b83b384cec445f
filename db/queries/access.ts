import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "../schema";
import type { DB } from "../index";
import { executeTemplate } from "../compiled";

/**
 * Every kid a parent may see and change: their own, and those delegated to their e-mail and accepted. In two parts,
 * for a query over `kid_profiles` that filters by them (the switcher's list, db/queries/kids.ts): `own`, the parent's
 * id (a value, or a subquery through the session's row), and `delegated`, the ids of the kids delegated and accepted.
 * A kid is the parent's when `parent_id = own` or its id is in `delegated`.
 */
export interface KidAccess {
  own: string | ReturnType<typeof sessionParentId>;
  /** null: known to have none (the page cache's SQLite read asks first). */
  delegated: ReturnType<typeof delegatedToEmail> | ReturnType<typeof delegatedThroughSession> | null;
}

export function kidAccessOfParent(db: DB, parent: { id: string; email: string }): KidAccess {
  return { own: parent.id, delegated: delegatedToEmail(db, parent.email) };
}

export function kidAccessOfSession(db: DB, sessionId: string): KidAccess {
  return { own: sessionParentId(db, sessionId), delegated: delegatedThroughSession(db, sessionId) };
}

const sessionParentId = (db: DB, sessionId: string) =>
  db.selectFrom("sessions").select("sessions.parent_id").where("sessions.id", "=", sessionId);

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

/** The authorisation rule: the kid is the parent's own, or delegated to their e-mail and accepted. One statement. */
export async function canAccessKid(db: DB, parent: { id: string; email: string }, profileId: string): Promise<boolean> {
  return Boolean(await findAccessibleKid(db, parent, profileId));
}

/**
 * canAccessKid's rule as a condition on a row of `kid_profiles` in a larger statement: the kid is the
 * parent's own, or delegated to their e-mail and accepted. Lets a procedure read its kid or phone and check access
 * in one round trip (a Lock went through four reads before its command was stored).
 */
function accessibleKid(parent: { id: string; email: string }) {
  return (eb: ExpressionBuilder<Database, "kid_profiles">) =>
    eb.or([
      eb("kid_profiles.parent_id", "=", parent.id),
      eb.exists(
        eb
          .selectFrom("delegation_kids")
          .innerJoin("delegations", "delegations.id", "delegation_kids.delegation_id")
          .select("delegation_kids.profile_id")
          .whereRef("delegation_kids.profile_id", "=", "kid_profiles.id")
          .where("delegations.delegate_email", "=", parent.email)
          .where("delegations.status", "=", "Accepted"),
      ),
    ]);
}

/** A kid the parent may see and change (canAccessKid's rule), read with the check in one statement; else undefined. */
export async function findAccessibleKid(db: DB, parent: { id: string; email: string }, profileId: string) {
  return db
    .selectFrom("kid_profiles")
    .select(["kid_profiles.id", "kid_profiles.name", "kid_profiles.parent_id", "kid_profiles.sleep_mode"])
    .where("kid_profiles.id", "=", profileId)
    .where(accessibleKid(parent))
    .executeTakeFirst();
}

/**
 * A device the parent may act on, looked up by serial number, with its kid and whether it is online, in one
 * statement (canAccessKid's rule); undefined when there is none or it is another family's. With
 * `commandsIssuedSince`, also how many commands this parent stored for the phone since then (the command budget,
 * device-service/commands/limits.ts), read by the phone's id in the same statement. With `profileId`, the phone must
 * also be that kid's (a page whose URL names both, e.g. /device-info's actions).
 */
export async function findAccessibleDevice(
  db: DB,
  parent: { id: string; email: string },
  serialNumber: string,
  opts: { commandsIssuedSince?: string; profileId?: string } = {},
) {
  const { commandsIssuedSince: since, profileId } = opts;
  // Compiled once per set of values given (db/compiled.ts keys on their names): on every Lock, Reboot and setting sent to a phone.
  const values = {
    serial: serialNumber,
    parentId: parent.id,
    email: parent.email,
    ...(since === undefined ? {} : { since }),
    ...(profileId === undefined ? {} : { profileId }),
  };
  const [row] = await executeTemplate(db, "findAccessibleDevice", values, (v) => {
    let query = db
      .selectFrom("devices")
      .innerJoin("kid_profiles", "kid_profiles.id", "devices.profile_id")
      .leftJoin("device_status", "device_status.device_id", "devices.id")
      .selectAll("devices")
      .select(["kid_profiles.name as kid_name", "device_status.online as status_online"])
      .select((eb) =>
        (v.since === undefined
          ? sql<number>`0`
          : eb
              .selectFrom("device_commands")
              .select(eb.fn.countAll().as("n"))
              .whereRef("device_commands.device_id", "=", "devices.id")
              .where("device_commands.issued_by", "=", v.parentId)
              .where("device_commands.created_at", ">", v.since)
        ).as("commands_issued"),
      )
      .where("devices.serial_number", "=", v.serial)
      .where(accessibleKid({ id: v.parentId, email: v.email }));
    if (v.profileId !== undefined) query = query.where("devices.profile_id", "=", v.profileId);
    return query;
  });
  if (!row) return undefined;
  const { kid_name, status_online, commands_issued, ...device } = row;
  return { device, kid: { id: device.profile_id, name: kid_name }, online: status_online === 1, commandsIssued: Number(commands_issued) };
}
