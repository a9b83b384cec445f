import webpush from "web-push";
import type { AlertDelivery } from "../../../core/alert-events";
import type { Logger } from "../../../core/log";
import type { VapidKeys } from "../../../core/vapid.server";
import type { DB } from "../../../db/index";
import { dropPushSubscription, pushTargetsFor, recordPushDelivered, type PushTarget } from "../../../db/queries/push-subscriptions";

/**
 * The alerts' Web Push channel (issue 55): one alert to every browser the parent allowed, through each browser's push
 * service (RFC 8030), signed with our VAPID key (RFC 8292) and encrypted to the browser's keys (RFC 8291, aes128gcm).
 * The message says the alert's title, text and path, nothing else.
 */

/** How long a push service keeps a message for a browser that is offline (then drops it): a day. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** One push service's answer may take this long before the send counts as failed (and is retried). */
export const PUSH_TIMEOUT_MS = 10_000;

export interface PushSenderDeps {
  db: DB;
  vapid: VapidKeys;
  /** How requests leave (tests: a fetch that reaches the local push-service double). Default: global fetch. */
  fetch?: typeof fetch;
  log?: Logger;
  now?: () => Date;
  timeoutMs?: number;
}

/** What one delivery did: browsers the service took it for, forgot (404/410), will retry, refused for good, already had it. */
export interface PushSummary {
  sent: number;
  dropped: number;
  retryable: number;
  refused: number;
  skipped: number;
}

/** Thrown when a push service asked us to come back (429, 5xx, no answer): the caller retries; browsers that took it are skipped. */
export class PushRetryableError extends Error {
  constructor(readonly summary: PushSummary) {
    super(`Web Push: ${summary.retryable} browser(s) could not be reached now (${summary.sent} took the alert); retry.`);
    this.name = "PushRetryableError";
  }
}

const LIMITS = { title: 100, body: 500, url: 500 };

/** At most `n` characters (code points: an emoji is never cut in half). */
function clip(s: string, n: number): string {
  const chars = Array.from(s);
  return chars.length > n ? `${chars.slice(0, n - 1).join("")}…` : s;
}

/**
 * The message a browser decrypts: `{title, body, url}` of the alert and nothing else. Text is clipped so the JSON
 * fits one 4 KiB push record; a url that is not a path of the portal becomes `/` (the service worker opens only ours).
 */
export function pushPayload(d: Pick<AlertDelivery, "title" | "body" | "url">): string {
  const path = d.url.startsWith("/") && !d.url.startsWith("//") && !d.url.includes("\\") && d.url.length <= LIMITS.url ? d.url : "/";
  return JSON.stringify({ title: clip(d.title, LIMITS.title), body: clip(d.body, LIMITS.body), url: path });
}

type Outcome = "sent" | "dropped" | "retryable" | "refused";

async function sendOne(deps: PushSenderDeps, t: PushTarget, payload: string): Promise<{ outcome: Outcome; status: number | null }> {
  const request = webpush.generateRequestDetails({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, payload, {
    vapidDetails: deps.vapid,
    TTL: PUSH_TTL_SECONDS,
    contentEncoding: "aes128gcm",
    urgency: "high",
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) if (k.toLowerCase() !== "content-length") headers[k] = String(v);
  let status: number;
  try {
    const res = await (deps.fetch ?? fetch)(request.endpoint, {
      method: "POST",
      headers,
      body: request.body,
      redirect: "error",
      signal: AbortSignal.timeout(deps.timeoutMs ?? PUSH_TIMEOUT_MS),
    });
    status = res.status;
    await res.body?.cancel();
  } catch {
    return { outcome: "retryable", status: null };
  }
  if (status >= 200 && status < 300) return { outcome: "sent", status };
  if (status === 404 || status === 410) return { outcome: "dropped", status };
  if (status === 429 || status >= 500) return { outcome: "retryable", status };
  return { outcome: "refused", status };
}

/** Send one alert to the parent's browsers that have not taken it yet; forget those whose subscription is gone. */
export async function deliverPush(deps: PushSenderDeps, d: AlertDelivery): Promise<PushSummary> {
  const { db } = deps;
  const summary: PushSummary = { sent: 0, dropped: 0, retryable: 0, refused: 0, skipped: 0 };
  const [all, targets] = await Promise.all([
    db
      .selectFrom("push_subscriptions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("parent_id", "=", d.parentId)
      .executeTakeFirstOrThrow(),
    pushTargetsFor(db, d.parentId, d.alertId),
  ]);
  summary.skipped = Number(all.n) - targets.length;
  if (!targets.length) return summary;
  const payload = pushPayload(d);
  await Promise.all(
    targets.map(async (t) => {
      const { outcome, status } = await sendOne(deps, t, payload);
      summary[outcome] += 1;
      if (outcome === "sent") await recordPushDelivered(db, t.id, d.alertId, deps.now?.());
      else if (outcome === "dropped") await dropPushSubscription(db, t.id);
      if (outcome !== "sent")
        deps.log?.(outcome === "dropped" ? "info" : "warn", `web push ${outcome}`, {
          alert: d.alertId,
          subscription: t.id,
          host: new URL(t.endpoint).host,
          status,
        });
    }),
  );
  return summary;
}

/**
 * The push channel the alert pipeline calls once per alert and parent (`AlertDelivery`). It throws PushRetryableError
 * when a browser's push service asked us to come back, so the job retries; a retry sends only to the browsers that
 * did not take it (push_deliveries), never twice to one.
 */
export function createPushSender(deps: PushSenderDeps): (d: AlertDelivery) => Promise<void> {
  return async (d) => {
    const summary = await deliverPush(deps, d);
    if (summary.retryable > 0) throw new PushRetryableError(summary);
  };
}
