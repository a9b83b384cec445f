// ---- Web Push for the alerts (migration 2026-11-29T06-push-subscriptions); part of `Database` in schema.ts ----

/** A browser a parent allowed to show alerts: the push service's endpoint and the keys its messages are encrypted to. */
export interface PushSubscriptionsTable {
  id: string;
  parent_id: string;
  /** The push service's URL for this browser (https, a known push service): unique, one browser is one parent's. */
  endpoint: string;
  /** The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url. */
  p256dh: string;
  auth: string;
  /** What the parent sees for it: "Chrome on Android". */
  label: string;
  created_at: string;
  /** The last time the push service accepted a message for it. */
  last_success_at: string | null;
}

/** One alert the push service accepted for one browser: a retried delivery does not send it there again. */
export interface PushDeliveriesTable {
  alert_id: string;
  subscription_id: string;
  created_at: string;
}

export interface PushDatabase {
  push_subscriptions: PushSubscriptionsTable;
  push_deliveries: PushDeliveriesTable;
}
