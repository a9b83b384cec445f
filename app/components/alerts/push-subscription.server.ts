import { createECDH } from "node:crypto";
import { z } from "zod";

/**
 * What a browser's push subscription must be before it is stored (issue 55, Web Push): an https endpoint on a known
 * push service, and the keys the payload is encrypted to (RFC 8291: a 65-byte P-256 point and a 16-byte secret).
 */

/** The push services of the browsers in use: Chrome/Android (FCM), Firefox, Edge (WNS), Safari (Apple). */
export const KNOWN_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.notify.windows.com",
  "*.push.apple.com",
  "web.push.apple.com",
];

/** How many browsers one parent may turn notifications on in. */
export const MAX_PUSH_BROWSERS = 20;

export interface PushEndpointRules {
  /** Hosts allowed (`*.` = any subdomain); PUSH_ENDPOINT_HOSTS, else KNOWN_PUSH_HOSTS. */
  hosts: string[];
  /** http:// and https:// on 127.0.0.1, ::1 and localhost (a local push-service double): NODE_ENV=test or PUSH_ALLOW_INSECURE_ENDPOINTS. */
  allowLoopback: boolean;
}

export function pushEndpointRules(e: {
  NODE_ENV: string;
  PUSH_ENDPOINT_HOSTS: string;
  PUSH_ALLOW_INSECURE_ENDPOINTS: boolean;
}): PushEndpointRules {
  const listed = e.PUSH_ENDPOINT_HOSTS.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return { hosts: listed.length ? listed : KNOWN_PUSH_HOSTS, allowLoopback: e.NODE_ENV === "test" || e.PUSH_ALLOW_INSECURE_ENDPOINTS };
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

export function hostAllowed(host: string, hosts: string[]): boolean {
  const h = host.toLowerCase();
  return hosts.some((p) => (p.startsWith("*.") ? h.endsWith(p.slice(1)) && h.length > p.length - 1 : h === p));
}

export const NOT_TURNED_ON = "so notifications were not turned on on this browser.";

/** Why an endpoint is refused (a sentence for the parent), or null when it may be stored. */
export function endpointProblem(endpoint: string, rules: PushEndpointRules): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `This browser gave a push address that is not an address, ${NOT_TURNED_ON}`;
  }
  if (url.username || url.password) return `This browser's push address carries a user name, ${NOT_TURNED_ON}`;
  if (rules.allowLoopback && LOOPBACK.has(url.hostname) && (url.protocol === "http:" || url.protocol === "https:")) return null;
  if (url.protocol !== "https:") return `This browser's push address is not a secure (https) address, ${NOT_TURNED_ON}`;
  if (url.port || !hostAllowed(url.hostname, rules.hosts))
    return `This browser's push service (${url.host}) is not one we send notifications through, ${NOT_TURNED_ON}`;
  return null;
}

const KEYS_MESSAGE = `This browser's push keys are not valid, ${NOT_TURNED_ON} Please try again.`;

const base64url = (bytes: number) =>
  z
    .string()
    .trim()
    .transform((v) => v.replace(/=+$/, ""))
    .refine((v) => /^[A-Za-z0-9_-]+$/.test(v) && Buffer.from(v, "base64url").length === bytes, KEYS_MESSAGE);

/** A P-256 public key in uncompressed form that is a point on the curve. */
export function isP256Point(b64url: string): boolean {
  const raw = Buffer.from(b64url, "base64url");
  if (raw.length !== 65 || raw[0] !== 4) return false;
  try {
    const probe = createECDH("prime256v1");
    probe.generateKeys();
    probe.computeSecret(raw);
    return true;
  } catch {
    return false;
  }
}

/** The subscribe form: what PushSubscription.toJSON() gives, flattened (endpoint, p256dh, auth). */
export function subscriptionSchema(rules: PushEndpointRules) {
  return z.object({
    endpoint: z
      .string({ required_error: `This browser gave no push address, ${NOT_TURNED_ON}` })
      .trim()
      .max(2048, `This browser's push address is too long, ${NOT_TURNED_ON}`)
      .superRefine((v, ctx) => {
        const problem = endpointProblem(v, rules);
        if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
      }),
    p256dh: base64url(65).refine(isP256Point, KEYS_MESSAGE),
    auth: base64url(16),
  });
}
