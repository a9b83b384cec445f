/**
 * The webhook contract shared by the event sources (device-service/, jobs/alerts/), the delivery job (jobs/) and the
 * page (/webhooks): the event types a parent can subscribe to, and the payload each delivery carries (Standard
 * Webhooks: `{ type, timestamp, data }`, signed with the endpoint's `whsec_…` secret).
 */

/** Every event type an endpoint can subscribe to, with the label the /webhooks page shows beside its checkbox. */
export const WEBHOOK_EVENT_TYPES = {
  "request.created": "Requests: the kid asks to install, uninstall or for more time",
  "place.changed": "Places: the kid arrives at or leaves a place",
  "alert.created": "Alerts: battery low, phone offline, protection off and the other alerts",
  "command.acknowledged": "Commands acknowledged: the phone carried out a command",
  "limit.reached": "Limits reached: the phone stopped an app at a time limit",
} as const;
export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as [WebhookEventType, ...WebhookEventType[]];

/** The one type sent by "Send test event", to that endpoint only, whatever it subscribes to. */
export const WEBHOOK_TEST_TYPE = "webhook.test";

/** What one delivery's body says (JSON). `data` holds ids and facts, never secrets. */
export interface WebhookPayload {
  type: WebhookEventType | typeof WEBHOOK_TEST_TYPE;
  /** ISO time the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The delivery schedule: the first attempt at once, then after each delay (5 attempts over about an hour). An
 * endpoint whose deliveries fail this many times in a row (each after its every attempt) is switched off.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 45 * 60_000];
export const WEBHOOK_DISABLE_AFTER = 5;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** At most this many endpoints per parent. */
export const WEBHOOK_MAX_ENDPOINTS = 10;

/** A family's default MQTT topic prefix for the Home Assistant bridge (server/home-assistant.ts). */
export const defaultTopicPrefix = (parentId: string) => `kidsportal/${parentId}`;

/**
 * The webhook type an alert of the alert pipeline (core/alert-events.ts) is sent as: places as `place.changed`, the
 * other alerts as `alert.created`; null for requests and limits, which their own sources send already
 * (`request.created`, `limit.reached`).
 */
export function webhookTypeOfAlert(kind: string): WebhookEventType | null {
  if (kind.startsWith("place.")) return "place.changed";
  if (kind.startsWith("request.") || kind === "limit.reached") return null;
  return "alert.created";
}
