/**
 * What each alert says (issue 55 item 3): one function per kind from the kid's name and the event's details, and the
 * switches a parent starts with. Texts only: no secrets, no links (a push payload carries exactly these).
 */
import { ALERT_CHANNELS, ALERT_KINDS, type AlertChannel, type AlertKind } from "./alert-events";

export interface AlertText {
  title: string;
  body: string;
}

type Details = Record<string, string | number>;

const str = (d: Details, k: string, fallback: string) => {
  const v = d[k];
  return v === undefined || v === "" ? fallback : String(v);
};
const num = (d: Details, k: string) => {
  const v = Number(d[k]);
  return Number.isFinite(v) ? v : null;
};
const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

const TEXTS: Record<AlertKind, (kid: string, d: Details) => AlertText> = {
  "request.install": (kid, d) => ({
    title: `${kid} asked to install ${str(d, "app", "an app")}`,
    body: `Open Requests to approve or reject it.${d.remarks ? ` ${kid} wrote: "${String(d.remarks)}"` : ""}`,
  }),
  "request.uninstall": (kid, d) => ({
    title: `${kid} asked to uninstall ${str(d, "app", "an app")}`,
    body: "Open Requests to approve or reject it.",
  }),
  "request.extra-time": (kid, d) => {
    const m = num(d, "minutes");
    return {
      title: `${kid} asked for ${m ? plural(m, "more minute") : "more time"} on ${str(d, "app", "an app")}`,
      body: "Open Requests to approve or reject it.",
    };
  },
  "place.arrive": (kid, d) => ({
    title: `${kid} arrived at ${str(d, "placeName", str(d, "place", "a place"))}`,
    body: `${kid}'s phone entered the place's area.`,
  }),
  "place.leave": (kid, d) => ({
    title: `${kid} left ${str(d, "placeName", str(d, "place", "a place"))}`,
    body: `${kid}'s phone left the place's area.`,
  }),
  "battery.low": (kid, d) => ({
    title: `${kid}'s phone battery is at ${num(d, "percent") ?? 0} %`,
    body: "It may switch off soon. Protection and location stop while it is off.",
  }),
  "phone.offline": (kid, d) => ({
    title: `${kid}'s phone has been offline for ${plural(num(d, "hours") ?? 0, "hour")}`,
    body: "It may be switched off, out of battery or without a connection. You will see its state again once it reconnects.",
  }),
  "limit.reached": (kid, d) => ({
    title: d.app ? `${kid} reached the daily limit on ${String(d.app)}` : `${kid} reached the daily limit`,
    body: d.app ? `${String(d.app)} is stopped until midnight.` : "The phone's apps are stopped until midnight.",
  }),
  "tamper.protection-off": (kid) => ({
    title: `Protection was turned off on ${kid}'s phone`,
    body: "The kids app no longer protects the phone. Check the phone, and turn protection on again.",
  }),
  "tamper.permissions-off": (kid, d) => ({
    title: `Permissions of the kids app were turned off on ${kid}'s phone`,
    body: `${d.permissions ? `Missing: ${String(d.permissions)}. ` : ""}The kids app cannot enforce limits without them.`,
  }),
  "tamper.private-dns": (kid, d) => ({
    title: `Private DNS was changed on ${kid}'s phone`,
    body: `${d.mode ? `It is now: ${String(d.mode)}. ` : ""}The web filter does not apply until it is set back.`,
  }),
  "tamper.device-admin-removed": (kid) => ({
    title: `Device admin was removed from the kids app on ${kid}'s phone`,
    body: "The kids app can now be uninstalled. Check the phone, and give the kids app device admin again.",
  }),
  "tamper.clock-moved": (kid, d) => {
    const m = num(d, "minutes") ?? 0;
    return {
      title: `The clock was moved on ${kid}'s phone`,
      body: `It is ${plural(Math.abs(m), "minute")} ${m < 0 ? "behind" : "ahead of"} the real time. Time limits and schedules follow the phone's clock.`,
    };
  },
};

export const MAX_ALERT_TITLE = 200;
export const MAX_ALERT_BODY = 1000;

/** The alert's title and body for a kind, the kid's name and the event's details (cut to their limits). */
export function alertText(kind: AlertKind, kidName: string, details: Details): AlertText {
  const t = TEXTS[kind](kidName || "Your kid", details);
  return { title: t.title.slice(0, MAX_ALERT_TITLE), body: t.body.slice(0, MAX_ALERT_BODY) };
}

/** What each kind is called on the settings page and in the alerts filter. */
export const ALERT_KIND_LABELS: Record<AlertKind, string> = {
  "request.install": "Install requests",
  "request.uninstall": "Uninstall requests",
  "request.extra-time": "Extra time requests",
  "place.arrive": "Arrived at a place",
  "place.leave": "Left a place",
  "battery.low": "Battery under 15 %",
  "phone.offline": "Phone offline",
  "limit.reached": "Daily limit reached",
  "tamper.protection-off": "Protection turned off",
  "tamper.permissions-off": "Permissions turned off",
  "tamper.private-dns": "Private DNS changed",
  "tamper.device-admin-removed": "Device admin removed",
  "tamper.clock-moved": "Clock moved",
};

export const ALERT_CHANNEL_LABELS: Record<AlertChannel, string> = { centre: "Alert centre", email: "E-mail", push: "Browser notification" };

/** Defaults: the centre and push on for every kind; e-mail on for requests, tampering and a phone offline. */
export function defaultEnabled(kind: AlertKind, channel: AlertChannel): boolean {
  if (channel !== "email") return true;
  return kind.startsWith("request.") || kind.startsWith("tamper.") || kind === "phone.offline";
}

export function isAlertKind(v: unknown): v is AlertKind {
  return typeof v === "string" && (ALERT_KINDS as readonly string[]).includes(v);
}
export function isAlertChannel(v: unknown): v is AlertChannel {
  return typeof v === "string" && (ALERT_CHANNELS as readonly string[]).includes(v);
}

/** Battery under this percent raises battery.low (issue 55). */
export const BATTERY_LOW_PERCENT = 15;
/** The phone's clock this far from the server's raises tamper.clock-moved. */
export const CLOCK_MOVED_MS = 5 * 60_000;
/** ALERT_OFFLINE_HOURS' default. */
export const DEFAULT_OFFLINE_HOURS = 6;

/** Whether `minuteOfDay` is inside quiet hours from `start` to `end` (minutes; end before start runs past midnight). */
export function inQuietHours(minuteOfDay: number, start: number, end: number): boolean {
  if (start === end) return false;
  return start < end ? minuteOfDay >= start && minuteOfDay < end : minuteOfDay >= start || minuteOfDay < end;
}
