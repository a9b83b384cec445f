/**
 * "The database is not there right now" (a restart, a failover, a dropped connection, a full server), as
 * opposed to a bug or a constraint violation. Requests that fail this way answer 503 with
 * DATABASE_UNAVAILABLE_MESSAGE instead of a 500; the pool reconnects by itself on the next query.
 */
export const DATABASE_UNAVAILABLE_MESSAGE = "The service is briefly unavailable. Please try again in a minute.";

/** Seconds a client is asked to wait (Retry-After) before trying again. */
export const RETRY_AFTER_SECONDS = 30;

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNABORTED",
]);
// PostgreSQL SQLSTATEs: admin/crash shutdown, cannot connect now (starting up, shutting down), too many connections.
const PG_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);
// SQLite: another process holds the write lock for longer than busy_timeout.
const SQLITE_CODES = new Set(["SQLITE_BUSY", "SQLITE_BUSY_SNAPSHOT", "SQLITE_BUSY_TIMEOUT"]);
// node-postgres reports a lost socket and a pool that could not connect in time without a code.
const PG_MESSAGES = [
  "Connection terminated unexpectedly",
  "Connection terminated due to connection timeout",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
];

/** True when `err` (or one of its causes) means the database is unreachable for now. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (NETWORK_CODES.has(code) || PG_CODES.has(code) || SQLITE_CODES.has(code) || code.startsWith("08")) return true;
      // The device service already said so (a TRPCError, in-process or from a remote device service).
      if (code === "SERVICE_UNAVAILABLE") return true;
    }
    if (PG_MESSAGES.some((m) => e instanceof Error && e.message.startsWith(m))) return true;
    if ((e as { data?: { code?: unknown } }).data?.code === "SERVICE_UNAVAILABLE") return true;
  }
  return false;
}
