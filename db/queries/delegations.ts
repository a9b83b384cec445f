import type { DB } from "../index";
import type { Parent } from "../schema";
import { newId, nowIso } from "../../core/ids.server";

/**
 * Delegated access (spec 1 §3, §4, §6): an owner gives another adult, by email, full access to chosen kids of
 * their own. Pending until the invitee answers; accepted only by an account whose email is verified (the
 * address is the key of db/queries/access.ts, so only the person who controls it may turn it on); the owner
 * may revoke at any time, which ends access at once (the access rule reads this table on every request).
 * A new invitation after a rejection or revocation is a new row; old rows stay as the record.
 */

export type Status = "Pending" | "Accepted" | "Rejected" | "Revoked";
const ACTIVE: Status[] = ["Pending", "Accepted"];

export interface DelegationRow {
  id: string;
  ownerId: string;
  ownerName: string;
  ownerEmail: string;
  delegateEmail: string;
  delegateName: string;
  accessLevel: string;
  status: Status;
  kids: { id: string; name: string }[];
  createdAt: string;
  updatedAt: string;
}

/** The owner's own kids (never kids delegated to them: access cannot be passed on). */
export async function listOwnKids(db: DB, ownerId: string): Promise<{ id: string; name: string }[]> {
  return db
    .selectFrom("kid_profiles")
    .select(["id", "name"])
    .where("parent_id", "=", ownerId)
    .orderBy("created_at")
    .orderBy("name")
    .execute();
}

export type CreateResult = { ok: true; id: string } | { ok: false; message: string };

export async function createDelegation(
  db: DB,
  owner: Pick<Parent, "id" | "email">,
  input: { email: string; name: string; allowedKids: string[]; accessLevel: string },
  now: Date = new Date(),
): Promise<CreateResult> {
  const email = input.email.trim().toLowerCase();
  if (email === owner.email.toLowerCase()) return { ok: false, message: "You already have access to your own kids." };
  const own = await db
    .selectFrom("kid_profiles")
    .select("id")
    .where("parent_id", "=", owner.id)
    .where("id", "in", input.allowedKids)
    .execute();
  if (own.length !== input.allowedKids.length) return { ok: false, message: "Please choose among your own kids." };
  const ts = nowIso(now);
  const id = newId();
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom("delegations")
      .select("id")
      .where("owner_parent_id", "=", owner.id)
      .where("delegate_email", "=", email)
      .where("status", "in", ACTIVE)
      .executeTakeFirst();
    if (existing)
      return { ok: false as const, message: `${email} already has access or an open invitation. Revoke it first to change the kids.` };
    await trx
      .insertInto("delegations")
      .values({
        id,
        owner_parent_id: owner.id,
        delegate_email: email,
        delegate_name: input.name.trim(),
        access_level: input.accessLevel,
        status: "Pending",
        created_at: ts,
        updated_at: ts,
      })
      .execute();
    await trx
      .insertInto("delegation_kids")
      .values(input.allowedKids.map((profile_id) => ({ delegation_id: id, profile_id })))
      .execute();
    return { ok: true as const, id };
  });
}

async function withKids(db: DB, rows: Omit<DelegationRow, "kids">[]): Promise<DelegationRow[]> {
  if (!rows.length) return [];
  const kids = await db
    .selectFrom("delegation_kids")
    .innerJoin("kid_profiles", "kid_profiles.id", "delegation_kids.profile_id")
    .select(["delegation_kids.delegation_id", "kid_profiles.id", "kid_profiles.name"])
    .where(
      "delegation_kids.delegation_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("kid_profiles.created_at")
    .orderBy("kid_profiles.name")
    .execute();
  return rows.map((r) => ({ ...r, kids: kids.filter((k) => k.delegation_id === r.id).map((k) => ({ id: k.id, name: k.name })) }));
}

function baseQuery(db: DB) {
  return db
    .selectFrom("delegations")
    .innerJoin("parents as owner", "owner.id", "delegations.owner_parent_id")
    .select([
      "delegations.id",
      "delegations.owner_parent_id as ownerId",
      "owner.name as ownerName",
      "owner.email as ownerEmail",
      "delegations.delegate_email as delegateEmail",
      "delegations.delegate_name as delegateName",
      "delegations.access_level as accessLevel",
      "delegations.status",
      "delegations.created_at as createdAt",
      "delegations.updated_at as updatedAt",
    ])
    .orderBy("delegations.created_at", "desc")
    .orderBy("delegations.id", "desc")
    .limit(200);
}

/** 'Delegated Access': what the owner has given, newest first. */
export async function listDelegatedAccess(db: DB, ownerId: string): Promise<DelegationRow[]> {
  return withKids(db, (await baseQuery(db).where("delegations.owner_parent_id", "=", ownerId).execute()) as Omit<DelegationRow, "kids">[]);
}

/** 'Access Received from Others': what was given to this address, newest first. */
export async function listAccessReceived(db: DB, email: string): Promise<DelegationRow[]> {
  return withKids(
    db,
    (await baseQuery(db).where("delegations.delegate_email", "=", email.toLowerCase()).execute()) as Omit<DelegationRow, "kids">[],
  );
}

export async function findDelegation(db: DB, id: string): Promise<DelegationRow | undefined> {
  const row = await baseQuery(db).where("delegations.id", "=", id).executeTakeFirst();
  return row ? (await withKids(db, [row as Omit<DelegationRow, "kids">]))[0] : undefined;
}

export type AnswerResult = { ok: true; delegation: DelegationRow } | { ok: false; reason: "not-found" | "unverified" | "not-pending" };

/**
 * The invitee accepts or rejects. Only the address the invitation was sent to may answer (anyone else: not
 * found); accepting needs that address verified; only a pending invitation can be answered (atomically, so
 * a revocation racing an acceptance wins or loses cleanly).
 */
export async function answerDelegation(
  db: DB,
  parent: Pick<Parent, "id" | "email" | "email_verified_at">,
  id: string,
  answer: "Accepted" | "Rejected",
  now: Date = new Date(),
): Promise<AnswerResult> {
  const current = await findDelegation(db, id);
  if (!current || current.delegateEmail !== parent.email.toLowerCase()) return { ok: false, reason: "not-found" };
  if (answer === "Accepted" && !parent.email_verified_at) return { ok: false, reason: "unverified" };
  const ts = nowIso(now);
  const done = await db
    .updateTable("delegations")
    .set({ status: answer, responded_by: parent.id, responded_at: ts, updated_at: ts })
    .where("id", "=", id)
    .where("delegate_email", "=", parent.email.toLowerCase())
    .where("status", "=", "Pending")
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return { ok: false, reason: "not-pending" };
  return { ok: true, delegation: { ...current, status: answer, updatedAt: ts } };
}

export type RevokeResult =
  | { ok: true; delegation: DelegationRow; wasAccepted: boolean }
  | { ok: false; reason: "not-found" | "not-active" };

/** The owner ends a pending or accepted delegation; access ends with this write. Only the owner: others get not found. */
export async function revokeDelegation(db: DB, ownerId: string, id: string, now: Date = new Date()): Promise<RevokeResult> {
  const current = await findDelegation(db, id);
  if (!current || current.ownerId !== ownerId) return { ok: false, reason: "not-found" };
  const ts = nowIso(now);
  const done = await db
    .updateTable("delegations")
    .set({ status: "Revoked", revoked_at: ts, updated_at: ts })
    .where("id", "=", id)
    .where("owner_parent_id", "=", ownerId)
    .where("status", "in", ACTIVE)
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) return { ok: false, reason: "not-active" };
  return { ok: true, delegation: { ...current, status: "Revoked", updatedAt: ts }, wasAccepted: current.status === "Accepted" };
}

/** Parents with an account at this address (zero or one: emails are unique). */
export async function parentIdByEmail(db: DB, email: string): Promise<string | undefined> {
  return (await db.selectFrom("parents").select("id").where("email", "=", email.toLowerCase()).executeTakeFirst())?.id;
}
