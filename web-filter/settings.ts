import path from "node:path";
import { z } from "zod";
import { DEFAULT_DNS_FILTER_DOMAIN, DNS_FILTER_DOMAIN_PATTERN } from "../core/private-dns";

const seconds = (d: number) => z.coerce.number().int().min(0).default(d);
const whole = (d: number) => z.coerce.number().int().min(1).default(d);
const bool = (d: boolean) =>
  z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? d : v === "true" || v === "1"));

/** The resolver's settings from the environment (docs/web-filter.md lists them). */
const schema = z.object({
  NODE_ENV: z.string().default("development"),
  DATA_DIR: z.string().default("data"),
  /** The web filter on (the default) or off (`false`: no resolver, no /dns-query, no Web Filter page). */
  WEB_FILTER: bool(true),
  /**
   * The development certificate even when NODE_ENV=production: `npm start` (a local run of the production build)
   * sets it, as do the test servers. A deployment leaves it unset and names its certificate.
   */
  DNS_DEV_CERT: bool(false),
  /** The web process serves DoT too (`npm start`); `false` where `npm run resolver` serves it apart. */
  DNS_DOT_IN_WEB: bool(true),
  /** DNS-over-TLS port: 853 in production (Android's Private DNS asks there), 8853 in development. */
  DNS_DOT_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  /** Phones are `<filter id>.<DNS_FILTER_DOMAIN>` (their Private DNS hostname). */
  DNS_FILTER_DOMAIN: z
    .string()
    .regex(DNS_FILTER_DOMAIN_PATTERN, "DNS_FILTER_DOMAIN must be a domain name")
    .default(DEFAULT_DNS_FILTER_DOMAIN),
  /** Encrypted by default (the lookups are the family's), on kept-alive connections (docs/web-filter.md). */
  DNS_UPSTREAM: z.string().default("https://cloudflare-dns.com/dns-query,https://dns.quad9.net/dns-query"),
  DNS_UPSTREAM_TIMEOUT_MS: whole(2000),
  DNS_TLS_CERT: z.string().optional(),
  DNS_TLS_KEY: z.string().optional(),
  DNS_CACHE_ENTRIES: whole(100_000),
  DNS_CACHE_MAX_TTL: seconds(3600),
  DNS_NEGATIVE_MAX_TTL: seconds(900),
  DNS_BLOCKED_TTL: seconds(60),
  DNS_RATE_PER_SECOND: whole(50),
  DNS_RATE_BURST: whole(500),
  /**
   * How often a process serving the filter reads the lists' version (seconds; 0: never) and, when an import changed
   * it, loads the lists again (server/web-filter.ts).
   */
  DNS_LISTS_CHECK_SECONDS: seconds(60),
  /** The loopback UDP server for local debugging (`dig @127.0.0.1 -p PORT`): off unless set, and it serves one filter id. */
  DNS_UDP_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  DNS_UDP_FILTER: z.string().optional(),
});

export type WebFilterSettings = ReturnType<typeof webFilterSettings>;

export function webFilterSettings(env: Record<string, string | undefined> = process.env) {
  const e = schema.parse(env);
  const production = e.NODE_ENV === "production";
  if (production && e.WEB_FILTER && !e.DNS_DEV_CERT && (!e.DNS_TLS_CERT || !e.DNS_TLS_KEY))
    throw new Error("DNS_TLS_CERT and DNS_TLS_KEY must name the resolver's certificate and key in production (or WEB_FILTER=false).");
  if ((e.DNS_TLS_CERT === undefined) !== (e.DNS_TLS_KEY === undefined))
    throw new Error("DNS_TLS_CERT and DNS_TLS_KEY are set together or not at all.");
  return {
    ...e,
    DNS_FILTER_DOMAIN: e.DNS_FILTER_DOMAIN.toLowerCase(),
    DNS_DOT_PORT: e.DNS_DOT_PORT ?? (production ? 853 : 8853),
    /** Where the development certificate is generated when DNS_TLS_CERT/DNS_TLS_KEY are not set. */
    devCertDir: path.join(e.DATA_DIR, "web-filter-tls"),
  };
}
