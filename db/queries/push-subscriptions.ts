import { newId, nowIso } from "../../core/ids.server";
import type { DB } from "../index";

/** One browser a parent allowed, as the sender needs it. */
export interface PushTarget {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** One browser as the parent sees it. */
export interface PushBrowser {
  id: string;
  label: string;
  createdAt: string;
  lastSuccessAt: string | null;
}

export type SaveSubscriptionResult = "added" | "renewed" | "another-account" | "too-many";

/**
 * Store a browser's subscription for `parentId`. The same endpoint again for the same parent renews its keys and
 * label; an endpoint another parent holds is refused and left where it is (never moved: a browser shared by two
 * accounts shows one account's alerts until that account turns them off); beyond `max` browsers, refused.
 */
export async function savePushSubscription(
  db: DB,
  parentId: string,
  sub: { endpoint: string; p256dh: string; auth: string; label: string },
  max: number,
  now = new Date(),
): Promise<SaveSubscriptionResult> {
  return db.transaction().execute(async (trx) => {
    const held = await trx
      .selectFrom("push_subscriptions")
      .select(["id", "parent_id"])
      .where("endpoint", "=", sub.endpoint)
      .executeTakeFirst();
    if (held && held.parent_id !== parentId) return "another-account";
    if (held) {
      await trx
        .updateTable("push_subscriptions")
        .set({ p256dh: sub.p256dh, auth: sub.auth, label: sub.label })
        .where("id", "=", held.id)
        .execute();
      return "renewed";
    }
    const { n } = await trx
      .selectFrom("push_subscriptions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("parent_id", "=", parentId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= max) return "too-many";
    // Two parents posting the same endpoint at once: the unique index keeps the first; the second reads "another".
    const inserted = await trx
      .insertInto("push_subscriptions")
      .values({ id: newId(), parent_id: parentId, ...sub, created_at: nowIso(now), last_success_at: null })
      .onConflict((oc) => oc.column("endpoint").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? "added" : "another-account";
  });
}

/** Forget a browser of this parent, by its endpoint (the browser turning off) or its id (the list's button). */
export async function deletePushSubscription(db: DB, parentId: string, by: { endpoint: string } | { id: string }): Promise<boolean> {
  let q = db.deleteFrom("push_subscriptions").where("parent_id", "=", parentId);
  q = "endpoint" in by ? q.where("endpoint", "=", by.endpoint) : q.where("id", "=", by.id);
  const r = await q.executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function listPushBrowsers(db: DB, parentId: string): Promise<PushBrowser[]> {
  const rows = await db
    .selectFrom("push_subscriptions")
    .select(["id", "label", "created_at", "last_success_at"])
    .where("parent_id", "=", parentId)
    .orderBy("created_at", "desc")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, label: r.label, createdAt: r.created_at, lastSuccessAt: r.last_success_at }));
}

/** Whether this endpoint is one of this parent's browsers (the page's "on" state). */
export async function hasPushEndpoint(db: DB, parentId: string, endpoint: string): Promise<boolean> {
  const row = await db
    .selectFrom("push_subscriptions")
    .select("id")
    .where("parent_id", "=", parentId)
    .where("endpoint", "=", endpoint)
    .executeTakeFirst();
  return Boolean(row);
}

/** The parent's browsers that have not yet taken `alertId` (a retry skips those that have). */
export async function pushTargetsFor(db: DB, parentId: string, alertId: string): Promise<PushTarget[]> {
  return db
    .selectFrom("push_subscriptions as s")
    .select(["s.id", "s.endpoint", "s.p256dh", "s.auth"])
    .where("s.parent_id", "=", parentId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("push_deliveries as d")
            .select("d.alert_id")
            .whereRef("d.subscription_id", "=", "s.id")
            .where("d.alert_id", "=", alertId),
        ),
      ),
    )
    .orderBy("s.created_at")
    .orderBy("s.id")
    .execute();
}

/** The push service took `alertId` for this browser: remember it, and when. */
export async function recordPushDelivered(db: DB, subscriptionId: string, alertId: string, now = new Date()): Promise<void> {
  const at = nowIso(now);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("push_deliveries")
      .values({ alert_id: alertId, subscription_id: subscriptionId, created_at: at })
      .onConflict((oc) => oc.columns(["alert_id", "subscription_id"]).doNothing())
      .execute();
    await trx.updateTable("push_subscriptions").set({ last_success_at: at }).where("id", "=", subscriptionId).execute();
  });
}

/** The push service says this browser's subscription is gone (404/410): forget it. */
export async function dropPushSubscription(db: DB, subscriptionId: string): Promise<void> {
  await db.deleteFrom("push_subscriptions").where("id", "=", subscriptionId).execute();
}

/** Forget which browsers took alerts older than `before` (no delivery is retried that long). */
export async function prunePushDeliveries(db: DB, before: Date): Promise<number> {
  const r = await db.deleteFrom("push_deliveries").where("created_at", "<", nowIso(before)).executeTakeFirst();
  return Number(r.numDeletedRows);
}
