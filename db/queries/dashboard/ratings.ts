import type { DB } from "../../index";
import { nowIso } from "../../../core/ids.server";
import { KIDS_APP_PACKAGE } from "./usage";

export const RATING_SHOWN_KEY = "RatingPromptShownAt";

// ---------------------------------------------------------------- pending ratings

/**
 * Apps waiting for the parent's rating: store apps installed on the kid's phone since the rating popup was
 * last closed (kept per device as a setting, so no extra table is needed).
 */
export async function listPendingRatings(db: DB, deviceId: string, limit = 10) {
  // Apps installed since the rating popup was last closed (all of them before it ever was), in one round trip.
  return (
    db
      .selectFrom("profile_apps as pa")
      .innerJoin("catalog_apps as c", "c.package_name", "pa.package_name")
      .select(["pa.id", "pa.package_name", "c.title", "c.icon"])
      .where("pa.device_id", "=", deviceId)
      .where("pa.is_installed", "=", 1)
      .where("c.is_system_app", "=", 0)
      .where("pa.package_name", "!=", KIDS_APP_PACKAGE)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("global_settings as g")
              .select("g.value")
              .where("g.device_id", "=", deviceId)
              .where("g.key", "=", RATING_SHOWN_KEY)
              .whereRef("g.value", ">=", "pa.created_at"),
          ),
        ),
      )
      // Rating an app (any parent of the kid) marks its pending rating shown.
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("parent_ratings as r")
              .select("r.id")
              .whereRef("r.profile_id", "=", "pa.profile_id")
              .whereRef("r.package_name", "=", "pa.package_name"),
          ),
        ),
      )
      .orderBy("pa.created_at", "desc")
      .orderBy("c.title")
      .limit(limit)
      .execute()
  );
}

export async function markRatingsShown(db: DB, deviceId: string, now = new Date()): Promise<void> {
  const value = nowIso(now);
  await db
    .insertInto("global_settings")
    .values({ device_id: deviceId, key: RATING_SHOWN_KEY, value, updated_at: value })
    .onConflict((oc) => oc.columns(["device_id", "key"]).doUpdateSet({ value, updated_at: value }))
    .execute();
}
