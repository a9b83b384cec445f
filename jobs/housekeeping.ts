import type { DB } from "../db/index";
import { nowIso } from "../core/ids.server";
import { pruneAccountState } from "../db/queries/accounts";
import { pruneWebVisits } from "../db/queries/web-filter/visits";
import { prunePushDeliveries } from "../db/queries/push-subscriptions";
import { pruneTrail } from "../db/queries/places";

/** How long a phone's message ids are remembered for de-duplication: far beyond any retry of an upload. */
export const RECEIPT_RETENTION_DAYS = 7;
/** Ended sessions are kept a while for the parent's "signed-in devices" history, then removed. */
export const ENDED_SESSION_RETENTION_DAYS = 30;
/** Which browsers took which alert (Web Push): only a retried delivery reads it, and none is retried this long. */
export const PUSH_DELIVERY_RETENTION_DAYS = 7;

/** What the environment sets (WEB_LOG_DAYS, WEB_LOG_MAX_ROWS_PER_KID); the defaults are in db/queries/web-filter/visits.ts. */
export interface Retention {
  webLogDays?: number;
  webLogMaxRowsPerKid?: number;
}

/**
 * Removes state that only matters for a while: message receipts, used or expired enrollment tokens, ended
 * sessions, rate-limit windows, used links, old codes and sign-in tokens, the web filter's visited sites older
 * than WEB_LOG_DAYS or past a kid's WEB_LOG_MAX_ROWS_PER_KID, old Web Push delivery records, and locations and place
 * events older than 30 days (the map page's trail; a phone's newest location stays). Idempotent; every process may run
 * it (start-up and hourly), and a missed run is simply caught up by the next one.
 */
export async function pruneExpiredState(db: DB, now: Date = new Date(), retention: Retention = {}): Promise<Record<string, number>> {
  const days = (n: number) => nowIso(new Date(now.getTime() - n * 86_400_000));
  const counts: Record<string, number> = {};
  const receipts = await db
    .deleteFrom("device_message_receipts")
    .where("received_at", "<", days(RECEIPT_RETENTION_DAYS))
    .executeTakeFirst();
  counts.receipts = Number(receipts.numDeletedRows);
  const tokens = await db
    .deleteFrom("enrollment_tokens")
    .where((eb) => eb.or([eb("expires_at", "<", days(1)), eb("used_at", "<", days(1))]))
    .executeTakeFirst();
  counts.enrollmentTokens = Number(tokens.numDeletedRows);
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) =>
      eb.or([eb("expires_at", "<", days(ENDED_SESSION_RETENTION_DAYS)), eb("revoked_at", "<", days(ENDED_SESSION_RETENTION_DAYS))]),
    )
    .executeTakeFirst();
  counts.sessions = Number(sessions.numDeletedRows);
  counts.pushDeliveries = await prunePushDeliveries(db, new Date(now.getTime() - PUSH_DELIVERY_RETENTION_DAYS * 86_400_000));
  await pruneAccountState(db, now);
  Object.assign(counts, await pruneWebVisits(db, now, { days: retention.webLogDays, maxRowsPerKid: retention.webLogMaxRowsPerKid }));
  const trail = await pruneTrail(db, now);
  counts.locations = trail.locations;
  counts.placeEvents = trail.placeEvents;
  return counts;
}
