import { randomBytes } from "node:crypto";
import { newId, nowIso } from "../core/ids.server";
import { WEBHOOK_TEST_TYPE, type WebhookEventType, type WebhookPayload } from "../core/webhooks";
import type { DB } from "../db/index";
import type { DeviceServiceDeps } from "./context";
import { parentIdsForKid } from "./parents";

/**
 * Webhook events: an event for a kid becomes one delivery per endpoint subscribed to its type, of every parent who
 * may see the kid (the owner and accepted delegates). Recording the same event twice (same `eventId`) stores and
 * sends it once per endpoint (unique endpoint × event). The delivery job (jobs/processors/webhook-delivery.ts) signs
 * and sends each.
 */

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The job id of a delivery's attempt (no ':' allowed in job ids). */
export function deliveryJobId(deliveryId: string, attempt: number): string {
  return `webhook-${deliveryId}-${attempt}`;
}

export interface WebhookEventInput {
  type: WebhookEventType;
  profileId: string;
  /** Facts about the event (ids, names, numbers): never secrets. `profileId` is added. */
  data: Record<string, unknown>;
  /** Stable for the same real event (a request's id, a command's id…): the delivery's `webhook-id`. */
  eventId: string;
  /** When it happened (default now). */
  at?: string;
}

/** Queues the event's deliveries. Never throws: a failure is logged (an event source must not fail for a webhook). */
export async function enqueueWebhookEvent(deps: Pick<DeviceServiceDeps, "db" | "jobs" | "log">, e: WebhookEventInput): Promise<number> {
  try {
    if (!(await anyEndpoints(deps.db))) return 0;
    const parentIds = await parentIdsForKid(deps.db, e.profileId);
    if (!parentIds.length) return 0;
    const endpoints = await deps.db
      .selectFrom("webhook_endpoints")
      .select(["id", "event_types"])
      .where("parent_id", "in", parentIds)
      .where("enabled", "=", 1)
      .execute();
    const subscribed = endpoints.filter((ep) => {
      try {
        return (JSON.parse(ep.event_types) as string[]).includes(e.type);
      } catch {
        return false;
      }
    });
    if (!subscribed.length) return 0;
    const payload: WebhookPayload = { type: e.type, timestamp: e.at ?? nowIso(), data: { ...e.data, profileId: e.profileId } };
    let queued = 0;
    for (const ep of subscribed) if (await queueDelivery(deps, ep.id, e.eventId, payload)) queued++;
    return queued;
  } catch (err) {
    deps.log("warn", "webhook event not queued", {
      type: e.type,
      eventId: e.eventId,
      error: err instanceof Error ? err.message : String(err),
    });
    return 0;
  }
}

/**
 * Whether any endpoint is on, read at most every 5 s per database handle: every acknowledgement of every phone is an
 * event, and most installations have no webhooks at all. An endpoint made in this process clears it at once
 * (webhookEndpointsChanged); one made by another process is heard within 5 s.
 */
const ANY_TTL_MS = 5_000;
const anyCache = new WeakMap<DB, { at: number; any: Promise<boolean> }>();
function anyEndpoints(db: DB): Promise<boolean> {
  const hit = anyCache.get(db);
  if (hit && Date.now() - hit.at < ANY_TTL_MS) return hit.any;
  const any = db
    .selectFrom("webhook_endpoints")
    .select("id")
    .where("enabled", "=", 1)
    .limit(1)
    .executeTakeFirst()
    .then((r) => r !== undefined);
  anyCache.set(db, { at: Date.now(), any });
  any.catch(() => anyCache.delete(db));
  return any;
}

/** Forget the cached "any endpoint?" answer (an endpoint made, switched on or off). */
export function webhookEndpointsChanged(db: DB): void {
  anyCache.delete(db);
}

/** "Send test event": one `webhook.test` delivery to this endpoint (the caller checked it is the parent's). */
export async function sendTestEvent(deps: Pick<DeviceServiceDeps, "db" | "jobs" | "log">, endpointId: string): Promise<string> {
  const eventId = `msg_test_${newId()}`;
  const payload: WebhookPayload = {
    type: WEBHOOK_TEST_TYPE,
    timestamp: nowIso(),
    data: { message: "A test event from Kids Portal: your endpoint receives and verifies deliveries." },
  };
  await queueDelivery(deps, endpointId, eventId, payload);
  return eventId;
}

/** Stores one delivery (once per endpoint × event) and queues its first attempt. True when it was new. */
async function queueDelivery(
  deps: Pick<DeviceServiceDeps, "db" | "jobs" | "log">,
  endpointId: string,
  eventId: string,
  payload: WebhookPayload,
): Promise<boolean> {
  const id = newId();
  const ts = nowIso();
  const inserted = await deps.db
    .insertInto("webhook_deliveries")
    .values({
      id,
      endpoint_id: endpointId,
      event_id: eventId,
      type: payload.type,
      payload: JSON.stringify(payload),
      status_code: null,
      error: null,
      next_at: ts,
      created_at: ts,
      updated_at: ts,
    })
    .onConflict((oc) => oc.columns(["endpoint_id", "event_id"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return false;
  // Without a queue (bare test contexts) the delivery waits for the sweep (jobs/processors/webhook-delivery.ts).
  await deps.jobs?.enqueue("webhook-delivery", { deliveryId: id }, { jobId: deliveryJobId(id, 1) }).catch((err: unknown) => {
    deps.log("warn", "webhook delivery not queued (the sweep sends it)", {
      deliveryId: id,
      error: err instanceof Error ? err.message : String(err),
    });
  });
  return true;
}
