import type { DB } from "../index";
import type { Database } from "../schema";
import { newId, nowIso } from "../../core/ids.server";

/** The parent profile page's other reads and writes: the name, portal notifications, "changed by". */

export async function updateParentName(db: DB, parentId: string, name: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("parents")
    .set({ name: name.trim(), updated_at: nowIso(now) })
    .where("id", "=", parentId)
    .execute();
}

// ---- portal notifications (to an address: an invitee may sign up after being invited) ----

export async function addParentNotification(
  db: DB,
  to: string,
  message: string,
  link: string | null,
  now: Date = new Date(),
): Promise<void> {
  await db
    .insertInto("parent_notifications")
    .values({ id: newId(), recipient_email: to.toLowerCase(), message, link, created_at: nowIso(now), read_at: null })
    .execute();
}

export async function listParentNotifications(db: DB, email: string, limit = 20) {
  return db
    .selectFrom("parent_notifications")
    .select(["id", "message", "link", "created_at as createdAt", "read_at as readAt"])
    .where("recipient_email", "=", email.toLowerCase())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export async function markParentNotificationsRead(db: DB, email: string, now: Date = new Date()): Promise<void> {
  await db
    .updateTable("parent_notifications")
    .set({ read_at: nowIso(now) })
    .where("recipient_email", "=", email.toLowerCase())
    .where("read_at", "is", null)
    .execute();
}

// ---- "changed by" ----

export interface Actor {
  id: string;
  name: string;
  email: string;
}

const ACTOR = ["parents.id", "parents.name", "parents.email"] as const;

type ByTable = "kid_profiles" | "global_settings" | "devices" | "profile_apps" | "category_limits";
type Column<T extends ByTable> = keyof Database[T] & string;

/**
 * The parent a row's `by` column names, read with the row in one statement (an inner join: nobody recorded, or a
 * parent no longer there, is null), so a page's "changed by" costs one database round, not two one after the other.
 * The row is the one whose columns equal `match`.
 */
async function changedBy<T extends ByTable>(
  db: DB,
  table: T,
  by: Column<T>,
  match: Partial<Record<Column<T>, string>>,
): Promise<Actor | null> {
  const ref = (column: string) => db.dynamic.ref<string>(`${table}.${column}`);
  let q = db
    .selectFrom(table as ByTable)
    .innerJoin("parents", (j) => j.onRef("parents.id", "=", ref(by) as never))
    .select(ACTOR);
  for (const [column, value] of Object.entries(match)) q = q.where(ref(column) as never, "=", value as never);
  return (await q.executeTakeFirst()) ?? null;
}

/** Who last turned the kid's sleep mode on or off, or null when nobody has since this was recorded. */
export const sleepModeChangedBy = (db: DB, profileId: string) => changedBy(db, "kid_profiles", "sleep_mode_by", { id: profileId });

/** Who last saved a phone's global setting (the global daily limit by default). */
export const globalSettingChangedBy = (db: DB, deviceId: string, key = "GlobalDailyLimit") =>
  changedBy(db, "global_settings", "updated_by", { device_id: deviceId, key });

/** Who last changed a phone's protection, full access or map flag. */
export const deviceSettingsChangedBy = (db: DB, deviceId: string) => changedBy(db, "devices", "settings_updated_by", { id: deviceId });

/** Who last changed an app on this phone: its daily limit, enabled state, or its install from the store. */
export const appChangedBy = (db: DB, deviceId: string, packageName: string) =>
  changedBy(db, "profile_apps", "updated_by", { device_id: deviceId, package_name: packageName });

/** Who last changed a kid's category: its daily limit or enabled state. */
export const categoryChangedBy = (db: DB, profileId: string, category: string) =>
  changedBy(db, "category_limits", "updated_by", { profile_id: profileId, category });

/**
 * Who last uninstalled an app from this phone (the UNINSTALL_APP command's issuer; the app's own row is gone),
 * among the phone's latest uninstalls, or null.
 */
export async function uninstalledBy(db: DB, deviceId: string, packageName: string, lookBack = 50): Promise<Actor | null> {
  const rows = await db
    .selectFrom("device_commands")
    .leftJoin("parents", "parents.id", "device_commands.issued_by")
    .select(["device_commands.payload", "parents.id", "parents.name", "parents.email"])
    .where("device_commands.device_id", "=", deviceId)
    .where("device_commands.type", "=", "UNINSTALL_APP")
    .orderBy("device_commands.created_at", "desc")
    .orderBy("device_commands.id", "desc")
    .limit(lookBack)
    .execute();
  const hit = rows.find((r) => {
    try {
      return (JSON.parse(r.payload) as { packageName?: unknown }).packageName === packageName;
    } catch {
      return false;
    }
  });
  return hit?.id && hit.name != null && hit.email != null ? { id: hit.id, name: hit.name, email: hit.email } : null;
}
