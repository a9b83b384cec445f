/**
 * PostgreSQL ends one of two transactions that wait on each other (deadlock, 40P01) or that cannot be
 * serialised (40001) and expects the caller to run it again: the other one has then finished. Writes here take
 * row locks in different orders by nature — the view_rev triggers (db/view-revisions.ts) bump a kid's revision
 * from every table under it, so a cascade delete and a phone's telemetry meet in opposite orders.
 * SQLite has one writer at a time and waits (busy_timeout) instead.
 */
const RETRYABLE = new Set(["40P01", "40001"]);

export function isRetryableConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && RETRYABLE.has(code)) return true;
  }
  return false;
}

/** Runs `work` (a whole transaction, safe to repeat) again when PostgreSQL ended it for a conflict; at most `attempts` times. */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= attempts || !isRetryableConflict(err)) throw err;
      // A short, growing pause lets the transaction that won finish first.
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt * attempt));
    }
  }
}
