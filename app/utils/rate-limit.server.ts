import type { DB } from "#db/index";
import { allowAddress, type LimitedAction } from "#db/queries/rate-limits";
import type { Env } from "#core/env.server";
import { CLIENT_IP_HEADER } from "./security.server";

/** The client address as Express saw it (set by securityHeaders from req.ip, never from the client). */
export function clientIp(request: Request): string {
  return request.headers.get(CLIENT_IP_HEADER) || "unknown";
}

/**
 * Counts one attempt of `action` from this request's address in the current minute (the same counter as the
 * kids app's login: db/queries/rate-limits.ts). Returns false when over the limit.
 */
export async function allowIp(
  db: DB,
  env: Pick<Env, "RATE_LIMIT_IP_PER_MINUTE">,
  request: Request,
  action: LimitedAction,
  now = new Date(),
): Promise<boolean> {
  return allowAddress(db, env, clientIp(request), action, now);
}
