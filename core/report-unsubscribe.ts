import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/**
 * The mails' unsubscribe links: <path>?parent=<id>&sig=<HMAC-SHA256 of the id>, keyed from SESSION_SECRET with a key
 * of its own per purpose (a report link cannot stop alert mails, nor the other way round). The report mail's
 * (/reports/unsubscribe) turns the report frequency Off; the alert mail's (/alerts/unsubscribe) turns every alert
 * e-mail off. They never expire (a mail read months later must still unsubscribe) and only ever turn mails off,
 * after a confirmation page that POSTs: opening one (or a mail scanner prefetching it) changes nothing.
 */
export const UNSUBSCRIBE_PATH = "/reports/unsubscribe";
export const ALERTS_UNSUBSCRIBE_PATH = "/alerts/unsubscribe";

export type UnsubscribePurpose = "report" | "alerts";

const PURPOSES: Record<UnsubscribePurpose, { info: string; path: string }> = {
  report: { info: "report-unsubscribe v1", path: UNSUBSCRIBE_PATH },
  alerts: { info: "alert-unsubscribe v1", path: ALERTS_UNSUBSCRIBE_PATH },
};

function key(secret: string, purpose: UnsubscribePurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "kids-portal", PURPOSES[purpose].info, 32));
}

export function unsubscribeSignature(secret: string, parentId: string, purpose: UnsubscribePurpose = "report"): string {
  return createHmac("sha256", key(secret, purpose)).update(parentId).digest("base64url");
}

export function unsubscribeUrl(origin: string, secret: string, parentId: string, purpose: UnsubscribePurpose = "report"): string {
  const url = new URL(PURPOSES[purpose].path, origin);
  url.searchParams.set("parent", parentId);
  url.searchParams.set("sig", unsubscribeSignature(secret, parentId, purpose));
  return url.toString();
}

export function checkUnsubscribe(
  secret: string,
  parentId: string | null,
  sig: string | null,
  purpose: UnsubscribePurpose = "report",
): boolean {
  if (!parentId || !sig || parentId.length > 64 || sig.length > 64) return false;
  const want = Buffer.from(unsubscribeSignature(secret, parentId, purpose));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}
