import type { DB } from "../index";
import { newId, nowIso } from "../../core/ids.server";

/** The parent profile page's other reads and writes: the name, portal notifications, "changed by". */

export async function updateParentName(db: DB, parentId: string, name: string, now: Date = new Date()): Promise<void> {
  await db.updateTable("parents").set({ name: name.trim(), updated_at: nowIso(now) }).where("id", "=", parentId).execute();
}

// ---- portal notifications (to an address: an invitee may sign up after being invited) ----

export async function addParentNotification(db: DB, to: string, message: string, link: string | null, now: Date = new Date()): Promise<void> {
  await db.insertInto("parent_notifications").values({ id: newId(), recipient_email: to.toLowerCase(), message, link, created_at: nowIso(now), read_at: null }).execute();
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
  await db.updateTable("parent_notifications").set({ read_at: nowIso(now) }).where("recipient_email", "=", email.toLowerCase()).where("read_at", "is", null).execute();
}

// ---- "changed by" ----

export interface Actor {
  id: string;
  name: string;
  email: string;
}

// Each reads the row's "by" column and its parent in one statement (an inner join: no one recorded, or a parent no
// longer there, is no row): a page's "changed by" costs one database round, not two one after the other.
const ACTOR = ["parents.id", "parents.name", "parents.email"] as const;

/** Who last turned the kid's sleep mode on or off, or null when nobody has since this was recorded. */
export async function sleepModeChangedBy(db: DB, profileId: string): Promise<Actor | null> {
  return (await db.selectFrom("kid_profiles").innerJoin("parents", "parents.id", "kid_profiles.sleep_mode_by").select(ACTOR).where("kid_profiles.id", "=", profileId).executeTakeFirst()) ?? null;
}

/** Who last saved a phone's global setting (the global daily limit by default). */
export async function globalSettingChangedBy(db: DB, deviceId: string, key = "GlobalDailyLimit"): Promise<Actor | null> {
  return (
    (await db
      .selectFrom("global_settings")
      .innerJoin("parents", "parents.id", "global_settings.updated_by")
      .select(ACTOR)
      .where("global_settings.device_id", "=", deviceId)
      .where("global_settings.key", "=", key)
      .executeTakeFirst()) ?? null
  );
}

/** Who last changed a phone's protection, full access or map flag. */
export async function deviceSettingsChangedBy(db: DB, deviceId: string): Promise<Actor | null> {
  return (await db.selectFrom("devices").innerJoin("parents", "parents.id", "devices.settings_updated_by").select(ACTOR).where("devices.id", "=", deviceId).executeTakeFirst()) ?? null;
}

/** Who last changed an app on this phone: its daily limit, enabled state, or its install from the store. */
export async function appChangedBy(db: DB, deviceId: string, packageName: string): Promise<Actor | null> {
  return (
    (await db
      .selectFrom("profile_apps")
      .innerJoin("parents", "parents.id", "profile_apps.updated_by")
      .select(ACTOR)
      .where("profile_apps.device_id", "=", deviceId)
      .where("profile_apps.package_name", "=", packageName)
      .executeTakeFirst()) ?? null
  );
}

/** Who last changed a kid's category: its daily limit or enabled state. */
export async function categoryChangedBy(db: DB, profileId: string, category: string): Promise<Actor | null> {
  return (
    (await db
      .selectFrom("category_limits")
      .innerJoin("parents", "parents.id", "category_limits.updated_by")
      .select(ACTOR)
      .where("category_limits.profile_id", "=", profileId)
      .where("category_limits.category", "=", category)
      .executeTakeFirst()) ?? null
  );
}

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
