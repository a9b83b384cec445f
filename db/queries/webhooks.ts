import { newId, nowIso } from "../../core/ids.server";
import type { DB } from "../index";
import type { WebhookDeliveryState } from "../schema-webhooks";

/**
 * The webhook tables. Every function a page calls is scoped by the parent's id: another parent's endpoint reads as
 * missing and changes nothing.
 */

export interface EndpointView {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  failureCount: number;
  disabledAt: string | null;
  disabledReason: string | null;
  createdAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  state: WebhookDeliveryState;
  attempts: number;
  statusCode: number | null;
  error: string | null;
  nextAt: string | null;
  updatedAt: string;
}

function parseTypes(json: string): string[] {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((t): t is string => typeof t === "string") : [];
  } catch {
    return [];
  }
}

export async function listEndpoints(db: DB, parentId: string): Promise<EndpointView[]> {
  const rows = await db
    .selectFrom("webhook_endpoints")
    .select(["id", "url", "event_types", "enabled", "failure_count", "disabled_at", "disabled_reason", "created_at"])
    .where("parent_id", "=", parentId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    eventTypes: parseTypes(r.event_types),
    enabled: Boolean(r.enabled),
    failureCount: Number(r.failure_count),
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
  }));
}

export async function countEndpoints(db: DB, parentId: string): Promise<number> {
  const r = await db
    .selectFrom("webhook_endpoints")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("parent_id", "=", parentId)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function createEndpoint(db: DB, parentId: string, f: { url: string; secret: string; eventTypes: string[] }): Promise<string> {
  const id = newId();
  const ts = nowIso();
  await db
    .insertInto("webhook_endpoints")
    .values({
      id,
      parent_id: parentId,
      url: f.url,
      secret: f.secret,
      event_types: JSON.stringify(f.eventTypes),
      disabled_at: null,
      disabled_reason: null,
      created_at: ts,
      updated_at: ts,
    })
    .execute();
  return id;
}

/** The parent's own endpoint with its secret (the delivery job and "Send test event"), or undefined. */
export function findOwnEndpoint(db: DB, parentId: string, id: string) {
  return db.selectFrom("webhook_endpoints").selectAll().where("id", "=", id).where("parent_id", "=", parentId).executeTakeFirst();
}

export async function deleteEndpoint(db: DB, parentId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom("webhook_endpoints").where("id", "=", id).where("parent_id", "=", parentId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Switches an endpoint back on (its failures forgotten). False when it is not the parent's. */
export async function enableEndpoint(db: DB, parentId: string, id: string): Promise<boolean> {
  const r = await db
    .updateTable("webhook_endpoints")
    .set({ enabled: 1, failure_count: 0, disabled_at: null, disabled_reason: null, updated_at: nowIso() })
    .where("id", "=", id)
    .where("parent_id", "=", parentId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** The newest deliveries of each of the parent's endpoints (the page's delivery log), `perEndpoint` each. */
export async function recentDeliveries(db: DB, parentId: string, perEndpoint = 10): Promise<Map<string, DeliveryView[]>> {
  const endpoints = await db.selectFrom("webhook_endpoints").select("id").where("parent_id", "=", parentId).execute();
  const out = new Map<string, DeliveryView[]>();
  await Promise.all(
    endpoints.map(async (e) => {
      const rows = await db
        .selectFrom("webhook_deliveries")
        .select(["id", "event_id", "type", "state", "attempts", "status_code", "error", "next_at", "updated_at"])
        .where("endpoint_id", "=", e.id)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(perEndpoint)
        .execute();
      out.set(
        e.id,
        rows.map((r) => ({
          id: r.id,
          eventId: r.event_id,
          type: r.type,
          state: r.state,
          attempts: Number(r.attempts),
          statusCode: r.status_code == null ? null : Number(r.status_code),
          error: r.error,
          nextAt: r.next_at,
          updatedAt: r.updated_at,
        })),
      );
    }),
  );
  return out;
}

// ---- Home Assistant bridge settings ----

export interface HomeAssistantSettings {
  enabled: boolean;
  topicPrefix: string;
}

export async function getHomeAssistantSettings(db: DB, parentId: string): Promise<HomeAssistantSettings | null> {
  const r = await db
    .selectFrom("home_assistant_settings")
    .select(["enabled", "topic_prefix"])
    .where("parent_id", "=", parentId)
    .executeTakeFirst();
  return r ? { enabled: Boolean(r.enabled), topicPrefix: r.topic_prefix } : null;
}

export async function setHomeAssistantSettings(db: DB, parentId: string, s: HomeAssistantSettings): Promise<void> {
  const ts = nowIso();
  await db
    .insertInto("home_assistant_settings")
    .values({ parent_id: parentId, enabled: s.enabled ? 1 : 0, topic_prefix: s.topicPrefix, updated_at: ts })
    .onConflict((oc) => oc.column("parent_id").doUpdateSet({ enabled: s.enabled ? 1 : 0, topic_prefix: s.topicPrefix, updated_at: ts }))
    .execute();
}

/** Every family with the bridge on (the bridge's start and its periodic refresh). */
export function listHomeAssistantFamilies(db: DB) {
  return db
    .selectFrom("home_assistant_settings")
    .innerJoin("parents", "parents.id", "home_assistant_settings.parent_id")
    .select(["parents.id", "parents.email", "parents.role", "home_assistant_settings.topic_prefix"])
    .where("home_assistant_settings.enabled", "=", 1)
    .execute();
}

/** Whether another family already publishes under this prefix. */
export async function topicPrefixTaken(db: DB, parentId: string, prefix: string): Promise<boolean> {
  const r = await db
    .selectFrom("home_assistant_settings")
    .select("parent_id")
    .where("topic_prefix", "=", prefix)
    .where("parent_id", "!=", parentId)
    .executeTakeFirst();
  return r !== undefined;
}
