import { z } from "zod";

/**
 * A phone's Private DNS and the kid's web filter (issue 54 item 4), as the device service, the web filter and the pages
 * all read it: the hostname a phone is given (`<filter id>.<DNS_FILTER_DOMAIN>`), what a phone reports it is set to,
 * and whether that is the filter ("ok") or not ("changed"). No I/O.
 */

/** DNS_FILTER_DOMAIN when unset (web-filter/settings.ts reads the same default). */
export const DEFAULT_DNS_FILTER_DOMAIN = "dns.localhost";
export const DNS_FILTER_DOMAIN_PATTERN = /^(?=.{1,200}$)([a-z0-9-]+\.)*[a-z0-9-]+$/i;

/** The phone's Private DNS hostname for a filter id: the filter knows whose lookup it is by the first label. */
export function filterHostname(filterId: string, domain: string): string {
  return `${filterId}.${domain.toLowerCase()}`;
}

/**
 * The filter domain the phones' policies name, from the environment: undefined when the web filter is switched off
 * (WEB_FILTER=false), so policies carry no Private DNS; DNS_FILTER_DOMAIN (lower case) or the default otherwise.
 */
export function privateDnsDomainFromEnv(env: Record<string, string | undefined>): string | undefined {
  const on = (env.WEB_FILTER ?? "").trim().toLowerCase();
  if (on === "false" || on === "0") return undefined;
  const domain = (env.DNS_FILTER_DOMAIN ?? "").trim() || DEFAULT_DNS_FILTER_DOMAIN;
  return DNS_FILTER_DOMAIN_PATTERN.test(domain) ? domain.toLowerCase() : undefined;
}

/** Android's three Private DNS settings: Off, Automatic (the network's resolver, encrypted when it can) and a named hostname. */
export const PRIVATE_DNS_MODES = ["off", "opportunistic", "hostname"] as const;
export type PrivateDnsMode = (typeof PRIVATE_DNS_MODES)[number];

/** A hostname as the phone may report it: at most 253 characters of letters, digits, dots and hyphens. */
const hostnameSchema = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$/, "privateDns.hostname has unexpected characters")
  .transform(normaliseHost);

/** What a phone reports in child_status: its Private DNS setting (the hostname only in mode "hostname"). */
export const privateDnsReport = z
  .object({ mode: z.enum(PRIVATE_DNS_MODES), hostname: hostnameSchema.optional() })
  .refine((r) => r.mode !== "hostname" || r.hostname !== undefined, { message: "privateDns.hostname is required in mode hostname" })
  .transform((r) => (r.mode === "hostname" ? { mode: r.mode, hostname: r.hostname } : { mode: r.mode }));
export type PrivateDnsState = z.infer<typeof privateDnsReport>;

/** Lower case, without a trailing dot. */
export function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/\.+$/, "");
}

/**
 * Whether the phone's Private DNS sends its lookups through the kid's filter: "ok" when it names the expected
 * hostname, or when there is no filter to expect (switched off, no filter id); "changed" when it is off, automatic or
 * another hostname; "unknown" when the phone never reported it (an older kids app).
 */
export type PrivateDnsVerdict = "ok" | "changed" | "unknown";

export function privateDnsVerdict(expected: string | null, state: PrivateDnsState | null): PrivateDnsVerdict {
  if (!state) return "unknown";
  if (!expected) return "ok";
  return state.mode === "hostname" && normaliseHost(state.hostname ?? "") === normaliseHost(expected) ? "ok" : "changed";
}

/** A phone's Private DNS stopped being the filter ("changed") or became it again ("restored"). */
export interface PrivateDnsTransition {
  kind: "changed" | "restored";
  deviceId: string;
  profileId: string;
  /** The kid's filter hostname the phone should use. */
  expected: string;
  state: PrivateDnsState;
  /** ISO time of the report that made the change. */
  at: string;
}

/**
 * The transition a new report makes, from the state before it (null: never reported): ok or unknown → changed, and
 * changed → ok; null otherwise (no change, or nothing expected). The alerts pipeline hooks this
 * (kind "tamper.private-dns", core/alert-events.ts): one alert when a phone leaves the filter, none while it stays off.
 */
export function privateDnsTransition(
  expected: string | null,
  previous: PrivateDnsState | null,
  next: PrivateDnsState,
): "changed" | "restored" | null {
  if (!expected) return null;
  const before = privateDnsVerdict(expected, previous);
  const after = privateDnsVerdict(expected, next);
  if (after === "changed" && before !== "changed") return "changed";
  if (after === "ok" && before === "changed") return "restored";
  return null;
}
