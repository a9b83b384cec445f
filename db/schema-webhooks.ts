import type { Generated } from "kysely";

// ---- webhooks and the Home Assistant bridge (migration 2026-11-29T08-webhooks); part of `Database` in schema.ts ----

/** A parent's webhook endpoint (the /webhooks page). */
export interface WebhookEndpointsTable {
  id: string;
  parent_id: string;
  url: string;
  /** The Standard Webhooks signing secret, `whsec_` + base64 (shown once, when made). Never logged. */
  secret: string;
  /** JSON array of event types (core/webhooks.ts WEBHOOK_EVENT_TYPES). */
  event_types: string;
  enabled: Generated<number>;
  /** Deliveries that failed in a row, each after every attempt; reset by a delivered one or re-enabling. */
  failure_count: Generated<number>;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryState = "pending" | "sending" | "delivered" | "failed" | "cancelled";

/** One event for one endpoint: unique per endpoint × event id. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_id: string;
  type: string;
  /** The JSON body sent (`{ type, timestamp, data }`). */
  payload: string;
  attempts: Generated<number>;
  /** The HTTP status of the last attempt (null: no answer). */
  status_code: number | null;
  /** Why the last attempt failed (no secrets: a status, a timeout, a refused address). */
  error: string | null;
  state: Generated<WebhookDeliveryState>;
  /** When the next attempt is due (pending), else null. */
  next_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A family's Home Assistant bridge (the /parent-profile page): on or off, and its MQTT topic prefix. */
export interface HomeAssistantSettingsTable {
  parent_id: string;
  enabled: Generated<number>;
  topic_prefix: string;
  updated_at: string;
}

export interface WebhooksDatabase {
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  home_assistant_settings: HomeAssistantSettingsTable;
}
