import type { DB } from "../index";
import type { Parent } from "../schema";
import { newId, nowIso } from "../../core/ids.server";

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findParentByEmail(db: DB, email: string): Promise<Parent | undefined> {
  return db.selectFrom("parents").selectAll().where("email", "=", normalizeEmail(email)).executeTakeFirst();
}

export async function findParentById(db: DB, id: string): Promise<Parent | undefined> {
  return db.selectFrom("parents").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function createParent(
  db: DB,
  input: {
    email: string;
    name: string;
    passwordHash: string | null;
    role?: "parent" | "operator";
    useDefaultPassword?: boolean;
    emailVerified?: boolean;
    timeZone?: string;
  },
): Promise<Parent> {
  const now = nowIso();
  const row = {
    id: newId(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    password_hash: input.passwordHash,
    role: input.role ?? "parent",
    use_default_password: input.useDefaultPassword ? 1 : 0,
    email_verified_at: input.emailVerified ? now : null,
    created_at: now,
    updated_at: now,
    // The family's zone (issue 21), when sign-up knew it (the browser's); else the column's default, UTC.
    ...(input.timeZone ? { time_zone: input.timeZone } : {}),
  } as const;
  await db.insertInto("parents").values(row).execute();
  return (await findParentById(db, row.id))!;
}

export async function updateParentPassword(db: DB, parentId: string, passwordHash: string): Promise<void> {
  await db
    .updateTable("parents")
    .set({ password_hash: passwordHash, use_default_password: 0, updated_at: nowIso() })
    .where("id", "=", parentId)
    .execute();
}
