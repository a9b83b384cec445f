import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * The report mail's unsubscribe link: /reports/unsubscribe?parent=<id>&sig=<HMAC-SHA256 of the id>, keyed from
 * SESSION_SECRET. It never expires (a mail read months later must still unsubscribe) and only ever turns the
 * frequency Off, after a confirmation page that POSTs: opening it (or a mail scanner prefetching it) changes nothing.
 */
export const UNSUBSCRIBE_PATH = "/reports/unsubscribe";

function key(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "kids-portal", "report-unsubscribe v1", 32));
}

export function unsubscribeSignature(secret: string, parentId: string): string {
  return createHmac("sha256", key(secret)).update(parentId).digest("base64url");
}

export function unsubscribeUrl(origin: string, secret: string, parentId: string): string {
  const url = new URL(UNSUBSCRIBE_PATH, origin);
  url.searchParams.set("parent", parentId);
  url.searchParams.set("sig", unsubscribeSignature(secret, parentId));
  return url.toString();
}

export function checkUnsubscribe(secret: string, parentId: string | null, sig: string | null): boolean {
  if (!parentId || !sig || parentId.length > 64 || sig.length > 64) return false;
  const want = Buffer.from(unsubscribeSignature(secret, parentId));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
