import { newId, nowIso } from "../core/ids.server";
import type { DeviceServiceDeps } from "./context";
import { notifyParents } from "./notify";
import { firstTime } from "./socket/receipts";

/**
 * A kid's rating of an app, sent by the kids app over the device protocol (`kid_rating`; spec 2 §3 Kids rating):
 * stars 1–5 and an optional review, shown on /application's Info tab and in the store's list items.
 * Idempotent: a message id is applied once (a phone retrying after a drop re-sends the same id), and a kid has one
 * rating per app: a later one replaces the earlier (its stars, review and time), so one kid cannot stuff the average.
 */
export async function recordKidRating(
  deps: Pick<DeviceServiceDeps, "db" | "bus" | "log">,
  device: { id: string; profile_id: string },
  messageId: string,
  data: { packageName: string; rating: number; review?: string },
): Promise<void> {
  const ts = nowIso();
  const review = data.review?.trim() ? data.review.trim() : null;
  const stored = await deps.db.transaction().execute(async (trx) => {
    if (!(await firstTime(trx, device.id, messageId, "kid_rating"))) return false;
    const existing = await trx
      .selectFrom("kid_ratings")
      .select("id")
      .where("profile_id", "=", device.profile_id)
      .where("package_name", "=", data.packageName)
      .orderBy("created_at", "desc")
      .execute();
    if (existing.length) {
      await trx.updateTable("kid_ratings").set({ rating: data.rating, review, created_at: ts }).where("id", "=", existing[0]!.id).execute();
      if (existing.length > 1)
        await trx
          .deleteFrom("kid_ratings")
          .where(
            "id",
            "in",
            existing.slice(1).map((e) => e.id),
          )
          .execute();
    } else {
      await trx
        .insertInto("kid_ratings")
        .values({ id: newId(), profile_id: device.profile_id, package_name: data.packageName, rating: data.rating, review, created_at: ts })
        .execute();
    }
    return true;
  });
  if (stored) await notifyParents(deps, device.profile_id, "device.rating");
}
