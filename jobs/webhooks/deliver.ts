import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { nowIso } from "../../core/ids.server";
import { guardUrl, pinnedLookup } from "../../core/net-guard.server";
import { WEBHOOK_DISABLE_AFTER, WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_TIMEOUT_MS } from "../../core/webhooks";
import type { DeviceServiceDeps } from "../../device-service/context";
import { deliveryJobId } from "../../device-service/webhooks";

/**
 * One attempt of one webhook delivery, by the Standard Webhooks specification: POST of the JSON body with
 * `webhook-id` (the event id: the same on every attempt, receivers deduplicate on it), `webhook-timestamp` (seconds)
 * and `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the endpoint's secret). 2xx is
 * delivered; anything else, a timeout (10 s), a refused address or a redirect (never followed) is a failed attempt:
 * the next is queued on the schedule (5 attempts over about an hour). A delivery whose every attempt failed counts
 * against its endpoint; after WEBHOOK_DISABLE_AFTER in a row the endpoint is switched off and its parent told (a mail,
 * and the note on /webhooks).
 *
 * At most once: an attempt first claims the delivery (pending → sending, in one conditional update), so two jobs for
 * the same attempt (a redelivered BullMQ job, the sweep beside a late job) send it once; a delivered one is never sent
 * again. The secret and the body never reach the log.
 */

type Deps = Pick<DeviceServiceDeps, "db" | "jobs" | "log" | "webhooks" | "mail" | "publicUrl">;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** Sends one signed POST to an address already guarded. */
function post(
  target: { url: URL; address: string; family: 4 | 6 },
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const lib = target.url.protocol === "https:" ? https : http;
    const req = lib.request(
      target.url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "KidsPortal-Webhooks/1",
        },
        lookup: pinnedLookup(target),
        timeout: timeoutMs,
      },
      (res) => {
        res.resume();
        const code = res.statusCode ?? 0;
        const ok = code >= 200 && code < 300;
        resolve({
          ok,
          statusCode: code,
          error: ok ? null : code >= 300 && code < 400 ? `redirect (${code}) not followed` : `HTTP ${code}`,
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    req.on("timeout", () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)));
    req.on("error", (err) => resolve({ ok: false, statusCode: null, error: err.message.slice(0, 200) }));
    req.on("close", () => clearTimeout(timer));
    req.end(body);
  });
}

/** The Standard Webhooks headers for one body. */
export function signedHeaders(secret: string, eventId: string, body: string, at: Date = new Date()): Record<string, string> {
  const signature = new Webhook(secret).sign(eventId, at, body);
  return { "webhook-id": eventId, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature };
}

/** The webhook-delivery job: one attempt of one delivery. */
export async function deliverWebhook(deps: Deps, deliveryId: string, now: () => Date = () => new Date()): Promise<void> {
  const db = deps.db;
  const row = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["d.id", "d.event_id", "d.payload", "d.state", "d.attempts", "e.id as endpoint_id", "e.url", "e.secret", "e.enabled"])
    .where("d.id", "=", deliveryId)
    .executeTakeFirst();
  if (!row || row.state !== "pending") return;
  if (!row.enabled) {
    await db
      .updateTable("webhook_deliveries")
      .set({ state: "cancelled", next_at: null, error: "the endpoint is switched off", updated_at: nowIso(now()) })
      .where("id", "=", deliveryId)
      .where("state", "=", "pending")
      .execute();
    return;
  }
  const attempt = Number(row.attempts) + 1;
  const claimed = await db
    .updateTable("webhook_deliveries")
    .set({ state: "sending", attempts: attempt, updated_at: nowIso(now()) })
    .where("id", "=", deliveryId)
    .where("state", "=", "pending")
    .where("attempts", "=", Number(row.attempts))
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return;

  const cfg = deps.webhooks ?? { allowPrivate: false };
  const guarded = await guardUrl(row.url, { allowPrivate: cfg.allowPrivate, resolve: cfg.resolve });
  const result: AttemptResult = guarded.ok
    ? await post(guarded, signedHeaders(row.secret, row.event_id, row.payload, now()), row.payload, cfg.timeoutMs ?? WEBHOOK_TIMEOUT_MS)
    : { ok: false, statusCode: null, error: `address refused: ${guarded.reason}` };

  const ts = nowIso(now());
  if (result.ok) {
    await db
      .updateTable("webhook_deliveries")
      .set({ state: "delivered", status_code: result.statusCode, error: null, next_at: null, updated_at: ts })
      .where("id", "=", deliveryId)
      .execute();
    await db.updateTable("webhook_endpoints").set({ failure_count: 0 }).where("id", "=", row.endpoint_id).execute();
    return;
  }
  const delays = cfg.retryDelaysMs ?? WEBHOOK_RETRY_DELAYS_MS;
  if (attempt <= delays.length) {
    const delay = delays[attempt - 1]!;
    await db
      .updateTable("webhook_deliveries")
      .set({
        state: "pending",
        status_code: result.statusCode,
        error: result.error,
        next_at: nowIso(new Date(now().getTime() + delay)),
        updated_at: ts,
      })
      .where("id", "=", deliveryId)
      .execute();
    await deps.jobs?.enqueue("webhook-delivery", { deliveryId }, { delayMs: delay, jobId: deliveryJobId(deliveryId, attempt + 1) });
    deps.log("info", "webhook attempt failed; retrying", { deliveryId, endpointId: row.endpoint_id, attempt, status: result.statusCode });
    return;
  }
  await db
    .updateTable("webhook_deliveries")
    .set({ state: "failed", status_code: result.statusCode, error: result.error, next_at: null, updated_at: ts })
    .where("id", "=", deliveryId)
    .execute();
  deps.log("warn", "webhook delivery failed after every attempt", { deliveryId, endpointId: row.endpoint_id, attempts: attempt });
  await countFailure(deps, row.endpoint_id, now());
}

/** One more failed delivery in a row for the endpoint; at the limit it is switched off and its parent told. */
async function countFailure(deps: Deps, endpointId: string, at: Date): Promise<void> {
  const limit = deps.webhooks?.disableAfter ?? WEBHOOK_DISABLE_AFTER;
  const updated = await deps.db
    .updateTable("webhook_endpoints")
    .set((eb) => ({ failure_count: eb("failure_count", "+", 1) }))
    .where("id", "=", endpointId)
    .returning(["failure_count", "enabled"])
    .executeTakeFirst();
  if (!updated || !updated.enabled || Number(updated.failure_count) < limit) return;
  const ts = nowIso(at);
  const reason = `Switched off after ${limit} deliveries in a row failed.`;
  const off = await deps.db
    .updateTable("webhook_endpoints")
    .set({ enabled: 0, disabled_at: ts, disabled_reason: reason, updated_at: ts })
    .where("id", "=", endpointId)
    .where("enabled", "=", 1)
    .returning(["parent_id", "url"])
    .executeTakeFirst();
  if (!off) return;
  await deps.db
    .updateTable("webhook_deliveries")
    .set({ state: "cancelled", next_at: null, error: "the endpoint was switched off", updated_at: ts })
    .where("endpoint_id", "=", endpointId)
    .where("state", "=", "pending")
    .execute();
  deps.log("warn", "webhook endpoint switched off", { endpointId, failures: limit });
  const parent = await deps.db.selectFrom("parents").select(["email", "name"]).where("id", "=", off.parent_id).executeTakeFirst();
  if (parent && deps.mail) {
    const page = `${deps.publicUrl ?? ""}/webhooks`;
    await deps.mail({
      to: parent.email,
      subject: "A webhook endpoint was switched off",
      text: `Hello ${parent.name},\n\nKids Portal could not deliver to your webhook endpoint ${endpointOrigin(off.url)}: ${limit} deliveries in a row failed after every retry, so we switched it off. No more events are sent to it.\n\nThe delivery log shows what the endpoint answered. When it works again, turn it back on:\n\n${page}\n`,
    });
  }
}

/** The endpoint's scheme, host and path, without its query (which may hold a token the parent put there). */
export function endpointOrigin(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(an invalid address)";
  }
}

/**
 * The minute's sweep: a pending delivery past its time (a job lost with the in-process runner, a flushed Redis) is
 * queued again, and one left "sending" for 2 minutes (a crash mid-send) is put back to pending, to be sent again
 * with the same webhook-id. Returns how many were queued.
 */
export async function sweepWebhooks(deps: Deps, now: Date = new Date()): Promise<number> {
  const stuckBefore = nowIso(new Date(now.getTime() - 2 * 60_000));
  await deps.db
    .updateTable("webhook_deliveries")
    .set({ state: "pending", next_at: nowIso(now), updated_at: nowIso(now) })
    .where("state", "=", "sending")
    .where("updated_at", "<", stuckBefore)
    .execute();
  const due = await deps.db
    .selectFrom("webhook_deliveries")
    .select(["id", "attempts"])
    .where("state", "=", "pending")
    .where("next_at", "<=", nowIso(new Date(now.getTime() - 30_000)))
    .limit(500)
    .execute();
  for (const d of due)
    await deps.jobs?.enqueue("webhook-delivery", { deliveryId: d.id }, { jobId: deliveryJobId(d.id, Number(d.attempts) + 1) });
  return due.length;
}
