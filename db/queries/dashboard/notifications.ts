import { sql } from "kysely";
import type { DB } from "../../index";
import { nowIso } from "../../../core/ids.server";
import { cleanPhoneText } from "../../../core/phone-text";

// ---------------------------------------------------------------- notifications

export async function countUnreadNotifications(db: DB, profileId: string): Promise<number> {
  const r = await db
    .selectFrom("notifications")
    .select(sql<number>`count(*)`.as("n"))
    .where("profile_id", "=", profileId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Newest first; `limit` grows by 20 per page (the loader). */
export async function listNotifications(db: DB, profileId: string, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("notifications")
      .leftJoin("catalog_apps", "catalog_apps.package_name", "notifications.package_name")
      .select([
        "notifications.id",
        "notifications.message",
        "notifications.type",
        "notifications.package_name",
        "notifications.created_at",
        "notifications.read_at",
        "catalog_apps.title",
      ])
      .where("notifications.profile_id", "=", profileId)
      .orderBy("notifications.created_at", "desc")
      .orderBy("notifications.id")
      .limit(limit)
      .execute(),
    db
      .selectFrom("notifications")
      .select(sql<number>`count(*)`.as("n"))
      .where("profile_id", "=", profileId)
      .executeTakeFirstOrThrow(),
  ]);
  // Rows stored before phone text was cleaned at ingest are cleaned here (core/phone-text.ts).
  return { items: rows.map((r) => ({ ...r, message: cleanPhoneText(r.message), type: cleanPhoneText(r.type) })), total: Number(total.n) };
}

/** Opening the notification center resets the unread count to 0. */
export async function markNotificationsRead(db: DB, profileId: string, now = new Date()): Promise<number> {
  const r = await db
    .updateTable("notifications")
    .set({ read_at: nowIso(now) })
    .where("profile_id", "=", profileId)
    .where("read_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows ?? 0);
}
