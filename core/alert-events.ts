/**
 * The alert contract shared by the places of the product that notice something (device-service/, web-filter/) and the
 * pipeline that delivers it (jobs/alerts/): the event kinds, what one event says, and what one channel is handed.
 */

/** Every kind of alert a parent can switch per channel (settings page: event × channel). */
export const ALERT_KINDS = [
  "request.install",
  "request.uninstall",
  "request.extra-time",
  "place.arrive",
  "place.leave",
  "battery.low",
  "phone.offline",
  "limit.reached",
  "tamper.protection-off",
  "tamper.permissions-off",
  "tamper.private-dns",
  "tamper.device-admin-removed",
  "tamper.clock-moved",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const ALERT_CHANNELS = ["centre", "email", "push"] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/**
 * One thing that happened to one kid's phone. `eventId` is stable for the same real event (a request's id, a place
 * transition's id, `battery.low:<deviceId>:<day>`…): recording it twice stores and delivers it once.
 */
export interface AlertEvent {
  eventId: string;
  kind: AlertKind;
  profileId: string;
  deviceId: string | null;
  /** ISO time the event happened (the phone's report time, not the time it was noticed). */
  at: string;
  /** Kind-specific facts for the text (place name, battery percent, hours offline, app name…). No secrets. */
  details: Record<string, string | number>;
}

/** What a channel is handed to deliver one alert to one parent: the alert's text and where it leads, nothing more. */
export interface AlertDelivery {
  alertId: string;
  parentId: string;
  title: string;
  body: string;
  /** Path in the portal the alert opens (e.g. `/alerts?id=…` or the requests page). */
  url: string;
}
