import type { DB } from "../index";
import { accessibleKidIds } from "./access";
import { newId, nowIso } from "./ids";

/** A parent's new kid profile (before any phone is added). */
export async function createKidProfile(db: DB, parentId: string, kid: { name: string; birthMonth: number; birthYear: number }): Promise<string> {
  const id = newId();
  const now = nowIso();
  await db
    .insertInto("kid_profiles")
    .values({ id, parent_id: parentId, name: kid.name.trim(), birth_month: kid.birthMonth, birth_year: kid.birthYear, picture_mime: null, picture: null, created_at: now, updated_at: now })
    .execute();
  return id;
}

/** The switcher's list: every kid the parent may see, with their first device's serial number. Page size 50. */
export async function listKidsForParent(db: DB, parent: { id: string; email: string }, opts: { pageSize?: number; search?: string } = {}) {
  let q = db
    .selectFrom("kid_profiles")
    .leftJoin("devices", "devices.profile_id", "kid_profiles.id")
    .select(["kid_profiles.id", "kid_profiles.name", "kid_profiles.parent_id", "devices.serial_number"])
    .where("kid_profiles.id", "in", accessibleKidIds(db, parent))
    .orderBy("kid_profiles.created_at")
    .orderBy("kid_profiles.name")
    .limit(opts.pageSize ?? 50);
  if (opts.search) q = q.where("kid_profiles.name", "like", `%${opts.search.replace(/[%_]/g, "")}%`);
  const rows = await q.execute();
  // One entry per kid (a kid with two phones lists once, with its first device).
  const seen = new Set<string>();
  return rows
    .filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true)))
    .map((r) => ({ id: r.id, name: r.name, serialNumber: r.serial_number, own: r.parent_id === parent.id }));
}
