import { domainToASCII } from "node:url";

/**
 * What a blocked web address means (spec 2 /browser-logs), pure and shared by the portal (entries typed by a
 * parent), the device service (the policy's blocked list, the visits a phone reports) and the simulator (which
 * enforces the list like a phone).
 *
 * One spelling per address: `host[:port][/path]`, no scheme, the host lower-case, in punycode and without a
 * trailing dot, the scheme's default port dropped, no user info, query or fragment, no trailing slash.
 * An entry without a path blocks its host and every subdomain (example.com blocks www.example.com/page); an
 * entry with a path blocks that path and what lies under it on that host and its subdomains
 * (news.test/sport blocks news.test/sport/football, not news.test/sports).
 */

export const MAX_URL_LENGTH = 2048;
export const URL_REQUIRED = "Please enter a web address.";
export const URL_INVALID = "Please enter a web address such as example.com or https://example.com/page.";
export const URL_NEEDS_DOMAIN = "Please enter a full web address with a domain, such as example.com.";
export const URL_TOO_LONG = "A web address can be at most 2,048 characters long.";

export type UrlEntry = { ok: true; url: string } | { ok: false; message: string };

const WEB_SCHEMES = new Set(["http", "https", "ftp"]);
/** `name://` or a scheme without slashes (`javascript:`, `mailto:`); `example.com:8080` is a port, not a scheme. */
const SCHEME_WITH_SLASHES = /^([a-z][a-z0-9+.-]*):\/\//i;
const SCHEME_WITHOUT_SLASHES = /^([a-z][a-z0-9+.-]*):(?!\d)/i;

export function normaliseUrlEntry(raw: string): UrlEntry {
  const input = raw.trim();
  if (!input) return { ok: false, message: URL_REQUIRED };
  if (input.length > MAX_URL_LENGTH) return { ok: false, message: URL_TOO_LONG };
  let candidate: string;
  const scheme = SCHEME_WITH_SLASHES.exec(input)?.[1]?.toLowerCase();
  if (scheme) {
    if (!WEB_SCHEMES.has(scheme)) return { ok: false, message: URL_INVALID };
    candidate = input;
  } else if (input.startsWith("//")) {
    candidate = `http:${input}`;
  } else if (SCHEME_WITHOUT_SLASHES.test(input)) {
    return { ok: false, message: URL_INVALID };
  } else {
    candidate = `http://${input}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(candidate);
  } catch {
    return { ok: false, message: URL_INVALID };
  }
  const host = domainToASCII(parsed.hostname.replace(/\.+$/, "")) || (parsed.hostname.startsWith("[") ? parsed.hostname : "");
  if (!host) return { ok: false, message: URL_INVALID };
  if (!host.includes(".") && !host.startsWith("[")) return { ok: false, message: URL_NEEDS_DOMAIN };
  const path = parsed.pathname.replace(/\/{2,}/g, "/").replace(/\/+$/, "");
  return { ok: true, url: `${host}${parsed.port ? `:${parsed.port}` : ""}${path}` };
}

/** The normalised form, or "" when the text is not a web address. */
export function normaliseUrl(raw: string): string {
  const r = normaliseUrlEntry(raw);
  return r.ok ? r.url : "";
}

interface Parts {
  host: string;
  port: string;
  path: string;
}

function parts(normalised: string): Parts {
  const slash = normalised.indexOf("/");
  const hostPort = slash < 0 ? normalised : normalised.slice(0, slash);
  const path = slash < 0 ? "" : normalised.slice(slash);
  const m = /^(.*?)(?::(\d+))?$/.exec(hostPort)!;
  return { host: m[1]!, port: m[2] ?? "", path };
}

function covers(rule: Parts, visit: Parts): boolean {
  if (rule.port !== visit.port) return false;
  if (visit.host !== rule.host && !visit.host.endsWith(`.${rule.host}`)) return false;
  if (!rule.path) return true;
  return visit.path === rule.path || visit.path.startsWith(`${rule.path}/`);
}

/** The (normalised) blocked entry that covers this visit, or null when none does or the URL is not a web address. */
export function blockedBy(rules: readonly string[], visitUrl: string): string | null {
  const visit = normaliseUrl(visitUrl);
  if (!visit) return null;
  const v = parts(visit);
  for (const raw of rules) {
    const rule = normaliseUrl(raw);
    if (rule && covers(parts(rule), v)) return rule;
  }
  return null;
}

export function isBlocked(rules: readonly string[], visitUrl: string): boolean {
  return blockedBy(rules, visitUrl) !== null;
}

/** Where a listed address opens: as stored when it has a scheme, otherwise with http:// added (spec 2). */
export function openHref(url: string): string {
  return SCHEME_WITH_SLASHES.test(url) ? url : `http://${url}`;
}
