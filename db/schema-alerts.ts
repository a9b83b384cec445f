import type { Generated } from "kysely";
import type { AlertChannel, AlertKind } from "../core/alert-events";

// ---- alerts (migration 2026-11-29T05-alerts); part of `Database` in schema.ts ----

/** One alert for one parent: an event (event_id) told to each of its recipients once. */
export interface AlertsTable {
  id: string;
  event_id: string;
  parent_id: string;
  kind: AlertKind;
  profile_id: string;
  device_id: string | null;
  /** When it happened (ISO). */
  at: string;
  title: string;
  body: string;
  /** The portal path it opens. */
  url: string;
  /** 0: the parent switched the alert centre off for this kind (e-mail and push may still carry it). */
  in_centre: Generated<number>;
  read_at: string | null;
  created_at: string;
}

export type AlertDeliveryState = "pending" | "sending" | "sent" | "failed" | "skipped";

/** One channel of one alert: delivered at most once (the primary key; 'sending' is the claim). */
export interface AlertDeliveriesTable {
  alert_id: string;
  channel: AlertChannel;
  state: AlertDeliveryState;
  attempts: Generated<number>;
  /** The earliest next try (quiet hours' end, back-off). */
  next_at: string;
  claimed_at: string | null;
  sent_at: string | null;
  error: string | null;
}

/** A switch the parent changed; a missing row is the default (core/alert-texts.ts defaultEnabled). */
export interface AlertPreferencesTable {
  parent_id: string;
  kind: AlertKind;
  channel: AlertChannel;
  enabled: number;
  updated_at: string;
}

/** Quiet hours in the family's time zone ("HH:MM"; an end before the start runs past midnight). */
export interface AlertQuietHoursTable {
  parent_id: string;
  start_time: string;
  end_time: string;
  updated_at: string;
}

/** A state a phone is in that raised an alert (present while it lasts: one alert per spell). */
export interface AlertConditionsTable {
  device_id: string;
  condition: string;
  since: string;
}

export interface AlertsDatabase {
  alerts: AlertsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_preferences: AlertPreferencesTable;
  alert_quiet_hours: AlertQuietHoursTable;
  alert_conditions: AlertConditionsTable;
}
