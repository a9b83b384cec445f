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

async function actor(db: DB, parentId: string | null | undefined): Promise<Actor | null> {
  if (!parentId) return null;
  return (await db.selectFrom("parents").select(["id", "name", "email"]).where("id", "=", parentId).executeTakeFirst()) ?? null;
}

/** Who last turned the kid's sleep mode on or off, or null when nobody has since this was recorded. */
export async function sleepModeChangedBy(db: DB, profileId: string): Promise<Actor | null> {
  const row = await db.selectFrom("kid_profiles").select("sleep_mode_by").where("id", "=", profileId).executeTakeFirst();
  return actor(db, row?.sleep_mode_by);
}

/** Who last saved a phone's global setting (the global daily limit by default). */
export async function globalSettingChangedBy(db: DB, deviceId: string, key = "GlobalDailyLimit"): Promise<Actor | null> {
  const row = await db.selectFrom("global_settings").select("updated_by").where("device_id", "=", deviceId).where("key", "=", key).executeTakeFirst();
  return actor(db, row?.updated_by);
}

/** Who last changed a phone's protection, full access or map flag. */
export async function deviceSettingsChangedBy(db: DB, deviceId: string): Promise<Actor | null> {
  const row = await db.selectFrom("devices").select("settings_updated_by").where("id", "=", deviceId).executeTakeFirst();
  return actor(db, row?.settings_updated_by);
}

/** Who last changed an app on this phone: its daily limit, enabled state, or its install from the store. */
export async function appChangedBy(db: DB, deviceId: string, packageName: string): Promise<Actor | null> {
  const row = await db.selectFrom("profile_apps").select("updated_by").where("device_id", "=", deviceId).where("package_name", "=", packageName).executeTakeFirst();
  return actor(db, row?.updated_by);
}

/** Who last changed a kid's category: its daily limit or enabled state. */
export async function categoryChangedBy(db: DB, profileId: string, category: string): Promise<Actor | null> {
  const row = await db.selectFrom("category_limits").select("updated_by").where("profile_id", "=", profileId).where("category", "=", category).executeTakeFirst();
  return actor(db, row?.updated_by);
}

/**
 * Who last uninstalled an app from this phone (the UNINSTALL_APP command's issuer; the app's own row is gone),
 * among the phone's latest uninstalls, or null.
 */
export async function uninstalledBy(db: DB, deviceId: string, packageName: string, lookBack = 50): Promise<Actor | null> {
  const rows = await db
    .selectFrom("device_commands")
    .select(["payload", "issued_by"])
    .where("device_id", "=", deviceId)
    .where("type", "=", "UNINSTALL_APP")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(lookBack)
    .execute();
  const hit = rows.find((r) => {
    try {
      return (JSON.parse(r.payload) as { packageName?: unknown }).packageName === packageName;
    } catch {
      return false;
    }
  });
  return actor(db, hit?.issued_by);
}
