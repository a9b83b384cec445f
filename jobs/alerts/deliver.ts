/**
 * The alert pipeline's back (issue 55 items 3 and 4): one "alert-delivery" job delivers one alert's channels, each at
 * most once. A channel's row (alert_deliveries) is claimed by one conditional UPDATE (pending → sending): of two
 * processors at once, or a job run twice, one claims it and the other does nothing. A failure puts it back to pending
 * with a back-off (up to ALERT_MAX_ATTEMPTS); a claim left 'sending' by a crash is closed as failed by the tick, never
 * sent again (it may have gone). Quiet hours hold e-mail and push until they end; the centre shows at once.
 */
import { ALERT_CHANNELS, type AlertChannel, type AlertDelivery } from "../../core/alert-events";
import { inQuietHours } from "../../core/alert-texts";
import { nowIso } from "../../core/ids.server";
import { unsubscribeUrl } from "../../core/report-unsubscribe";
import type { ReportMailer } from "../../core/report-mail";
import { DEFAULT_TIME_ZONE, parseHhmm, safeTimeZone, wallClock, zonedInstant, localDay, shiftDay } from "../../core/zoned-time";
import type { DB } from "../../db/index";
import { canAccessKid } from "../../db/queries/access";
import type { Bus } from "../../device-service/bus";
import { queueAlertDelivery, raiseOfflineAlerts, type AlertDeps } from "../../device-service/alerts";
import { DEFAULT_OFFLINE_HOURS } from "../../core/alert-texts";

export const ALERT_MAX_ATTEMPTS = 5;
/** The first retry waits this long; each next one twice as long. */
export const ALERT_RETRY_BASE_MS = 30_000;
/** A claim older than this was left by a process that stopped mid-send: closed as failed. */
export const ALERT_STALE_CLAIM_MS = 10 * 60_000;
/** The tick: offline phones, lost jobs, ended quiet hours. */
export const ALERT_TICK_SCHEDULE = { id: "alert-tick", everyMs: 5 * 60_000 } as const;

export interface AlertDeliveryDeps extends AlertDeps {
  bus: Pick<Bus, "publish">;
  /** E-mail: the mail adapter and the unsubscribe links' key (absent: e-mail deliveries fail, and are retried). */
  mailer?: ReportMailer;
  secret?: string;
  publicUrl?: string;
  /** The Web Push channel (absent: push deliveries are skipped). */
  push?: (d: AlertDelivery) => Promise<void>;
  /** No mail can leave this deployment (no SMTP_URL and no dev mailbox): e-mail deliveries are skipped, not retried. */
  mailOff?: boolean;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** When the parent's quiet hours end, if `now` is inside them (their time zone); else null. */
export function quietUntil(q: { start_time: string; end_time: string } | undefined, timeZone: string, now: Date): Date | null {
  if (!q) return null;
  const start = parseHhmm(q.start_time);
  const end = parseHhmm(q.end_time);
  if (start === null || end === null) return null;
  const w = wallClock(now, timeZone);
  if (!inQuietHours(w.minuteOfDay, start, end)) return null;
  const today = localDay(now, timeZone);
  const endDay = w.minuteOfDay < end ? today : shiftDay(today, 1);
  return zonedInstant(endDay, end, timeZone);
}

/** The alert mail: the alert's text, its time in the parent's time zone, the link, and the unsubscribe link. */
export function composeAlertMail(
  a: { title: string; body: string; url: string; at: string },
  to: { email: string; name: string; timeZone: string; unsubscribe: string | null },
  origin: string,
) {
  const when = new Intl.DateTimeFormat("en-GB", {
    timeZone: to.timeZone,
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hour12: false,
  }).format(new Date(a.at));
  const link = new URL(a.url, origin).toString();
  const text = [
    `Hello ${to.name},`,
    "",
    a.title,
    a.body,
    "",
    `When: ${when} (${to.timeZone})`,
    "",
    `Open it in Kids Portal: ${link}`,
    ...(to.unsubscribe ? ["", `To stop alert e-mails, open: ${to.unsubscribe}`] : []),
    "",
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#111827;max-width:640px;margin:0 auto;padding:16px">
<p>Hello ${esc(to.name)},</p>
<h1 style="font-size:20px">${esc(a.title)}</h1>
<p>${esc(a.body)}</p>
<p style="color:#4b5563">When: ${esc(when)} (${esc(to.timeZone)})</p>
<p><a href="${esc(link)}" style="display:inline-block;background:#0f766e;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none">Open in Kids Portal</a></p>
${to.unsubscribe ? `<p style="color:#6b7280;font-size:12px">You get this mail because alert e-mails are on. <a href="${esc(to.unsubscribe)}">Stop alert e-mails</a>.</p>` : ""}
</body></html>`;
  return { to: to.email, subject: a.title, text, html, attachments: [] };
}

/** Marks every channel still to deliver of an alert as skipped (the recipient lost access to the kid). */
async function skipRest(db: DB, alertId: string, why: string): Promise<void> {
  await db
    .updateTable("alert_deliveries")
    .set({ state: "skipped", error: why })
    .where("alert_id", "=", alertId)
    .where("state", "=", "pending")
    .execute();
}

/** Claims one channel of one alert: true for exactly one caller while it is pending and due. */
export async function claimDelivery(db: DB, alertId: string, channel: AlertChannel, now: Date): Promise<boolean> {
  const res = await db
    .updateTable("alert_deliveries")
    .set((eb) => ({ state: "sending", claimed_at: now.toISOString(), attempts: eb("attempts", "+", 1) }))
    .where("alert_id", "=", alertId)
    .where("channel", "=", channel)
    .where("state", "=", "pending")
    .where("next_at", "<=", now.toISOString())
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Delivers the due channels of one alert (the "alert-delivery" job). Idempotent; at most once per channel. */
export async function deliverAlert(deps: AlertDeliveryDeps, alertId: string, now: Date = new Date()): Promise<void> {
  const { db } = deps;
  const a = await db
    .selectFrom("alerts")
    .innerJoin("parents", "parents.id", "alerts.parent_id")
    .select([
      "alerts.id",
      "alerts.parent_id",
      "alerts.profile_id",
      "alerts.title",
      "alerts.body",
      "alerts.url",
      "alerts.at",
      "parents.email",
      "parents.name",
      "parents.time_zone",
    ])
    .where("alerts.id", "=", alertId)
    .executeTakeFirst();
  if (!a) return;
  const rows = await db.selectFrom("alert_deliveries").select(["channel", "state", "next_at"]).where("alert_id", "=", alertId).execute();
  const due = rows.filter((r) => r.state === "pending");
  if (!due.length) return;
  // A delegate whose access was revoked since gets nothing more about this kid.
  if (!(await canAccessKid(db, { id: a.parent_id, email: a.email }, a.profile_id))) {
    await skipRest(db, alertId, "no access to the kid any more");
    return;
  }
  const timeZone = safeTimeZone(a.time_zone ?? DEFAULT_TIME_ZONE);
  const quiet = await db
    .selectFrom("alert_quiet_hours")
    .select(["start_time", "end_time"])
    .where("parent_id", "=", a.parent_id)
    .executeTakeFirst();
  const quietEnd = quietUntil(quiet, timeZone, now);
  const delivery: AlertDelivery = { alertId: a.id, parentId: a.parent_id, title: a.title, body: a.body, url: a.url };
  let later: number | null = null;
  for (const channel of ALERT_CHANNELS) {
    const row = due.find((r) => r.channel === channel);
    if (!row) continue;
    let nextAt = Date.parse(row.next_at);
    if (channel !== "centre" && quietEnd && quietEnd.getTime() > nextAt) {
      // Quiet hours: e-mail and push wait until they end (the centre still shows).
      nextAt = quietEnd.getTime();
      await db
        .updateTable("alert_deliveries")
        .set({ next_at: quietEnd.toISOString() })
        .where("alert_id", "=", alertId)
        .where("channel", "=", channel)
        .where("state", "=", "pending")
        .execute();
    }
    if (nextAt > now.getTime()) {
      later = Math.min(later ?? nextAt, nextAt);
      continue;
    }
    const skip = channel === "push" && !deps.push ? "no push channel" : channel === "email" && deps.mailOff ? "no mail transport" : null;
    if (skip) {
      await db
        .updateTable("alert_deliveries")
        .set({ state: "skipped", error: skip })
        .where("alert_id", "=", alertId)
        .where("channel", "=", channel)
        .where("state", "=", "pending")
        .execute();
      continue;
    }
    if (!(await claimDelivery(db, alertId, channel, now))) continue;
    let error: string | null = null;
    try {
      if (channel === "centre") {
        await deps.bus.publish({ type: "parent.refresh", parentIds: [a.parent_id], profileId: a.profile_id, reason: "alert.new" });
      } else if (channel === "email") {
        if (!deps.mailer || !deps.secret) throw new Error("no mail transport");
        const origin = deps.publicUrl ?? "http://localhost:3000";
        const mail = composeAlertMail(
          a,
          { email: a.email, name: a.name, timeZone, unsubscribe: unsubscribeUrl(origin, deps.secret, a.parent_id, "alerts") },
          origin,
        );
        if (!(await deps.mailer(mail))) throw new Error("the mail was not sent");
      } else {
        await deps.push!(delivery);
      }
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    }
    if (!error) {
      await db
        .updateTable("alert_deliveries")
        .set({ state: "sent", sent_at: nowIso(now), error: null })
        .where("alert_id", "=", alertId)
        .where("channel", "=", channel)
        .execute();
      continue;
    }
    const attempts = (
      await db
        .selectFrom("alert_deliveries")
        .select("attempts")
        .where("alert_id", "=", alertId)
        .where("channel", "=", channel)
        .executeTakeFirstOrThrow()
    ).attempts;
    const retryAt = now.getTime() + ALERT_RETRY_BASE_MS * 2 ** (attempts - 1);
    const final = attempts >= ALERT_MAX_ATTEMPTS;
    await db
      .updateTable("alert_deliveries")
      .set({ state: final ? "failed" : "pending", next_at: new Date(retryAt).toISOString(), claimed_at: null, error })
      .where("alert_id", "=", alertId)
      .where("channel", "=", channel)
      .execute();
    deps.log(final ? "error" : "warn", final ? "alert delivery failed" : "alert delivery will be retried", {
      alertId,
      channel,
      attempts,
      error,
    });
    if (!final) later = Math.min(later ?? retryAt, retryAt);
  }
  if (later !== null) await queueAlertDelivery(deps, alertId, { delayMs: Math.max(0, later - now.getTime()), tag: `n${later}` });
}

/**
 * The 5-minute tick: phones offline too long raise phone.offline; claims left by a crash are closed as failed; every
 * delivery pending and due is queued again (a job lost with Redis, quiet hours that ended).
 */
export async function alertTick(deps: AlertDeliveryDeps & { offlineHours?: number }, now: Date = new Date()): Promise<void> {
  await raiseOfflineAlerts(deps, deps.offlineHours ?? DEFAULT_OFFLINE_HOURS, now);
  await deps.db
    .updateTable("alert_deliveries")
    .set({ state: "failed", error: "stopped while sending (not sent again)" })
    .where("state", "=", "sending")
    .where("claimed_at", "<", new Date(now.getTime() - ALERT_STALE_CLAIM_MS).toISOString())
    .execute();
  const due = await deps.db
    .selectFrom("alert_deliveries")
    .select("alert_id")
    .distinct()
    .where("state", "=", "pending")
    .where("next_at", "<=", now.toISOString())
    .limit(1000)
    .execute();
  const tag = `t${Math.floor(now.getTime() / 60_000)}`;
  for (const r of due) await queueAlertDelivery(deps, r.alert_id, { tag });
}
