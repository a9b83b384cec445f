import { domainToASCII } from "node:url";

/**
 * Domain names as the lists store and the filter looks them up: lower case, no trailing dot, international names in
 * punycode (`bücher.de` → `xn--bcher-kva.de`), at least two labels of letters, digits, `-` and `_` (seen in real
 * hosts), each 1–63 characters and not starting or ending with `-`, at most 253 characters in all.
 */

/** Why a name is not listed (the import's summary counts each). */
export type DomainRejection = "invalid domain" | "IP address" | "single label" | "local name";

/** Names that hosts files map to themselves: never a domain to block. */
const LOCAL_NAMES = new Set(["localhost", "localhost.localdomain", "local", "broadcasthost", "ip6-localhost", "ip6-loopback"]);
const LOCAL_SUFFIXES = [".localhost", ".local", ".localdomain", ".home.arpa", ".in-addr.arpa", ".ip6.arpa", ".invalid", ".test"];
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export function normaliseDomain(raw: string): { domain: string } | { rejected: DomainRejection } {
  let name = raw.trim().toLowerCase();
  if (name.startsWith("*.")) name = name.slice(2);
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (IPV4.test(name) || name.includes(":")) return { rejected: "IP address" };
  if (LOCAL_NAMES.has(name) || LOCAL_SUFFIXES.some((s) => name.endsWith(s))) return { rejected: "local name" };
  if (!name || /[\s/\\?#@%]/.test(name)) return { rejected: "invalid domain" };
  // International names to punycode; domainToASCII answers "" for what WHATWG URL cannot parse as a host.
  const ascii = /^[\x21-\x7e]+$/.test(name) ? name : domainToASCII(name);
  if (!ascii || ascii.length > 253) return { rejected: "invalid domain" };
  const labels = ascii.split(".");
  if (!labels.every((l) => LABEL.test(l))) return { rejected: "invalid domain" };
  if (labels.length < 2) return { rejected: "single label" };
  if (/^\d+$/.test(labels[labels.length - 1])) return { rejected: "invalid domain" };
  return { domain: ascii };
}

/**
 * The names a lookup of `name` tries, longest first: `a.b.example.com` → `a.b.example.com`, `b.example.com`,
 * `example.com`, `com`. Whole labels only, so `badexample.com` never tries `example.com`.
 */
export function suffixesOf(name: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (;;) {
    out.push(name.slice(at));
    const dot = name.indexOf(".", at);
    if (dot < 0) return out;
    at = dot + 1;
  }
}

/** A name as a lookup sees it (from a DNS question): lower case, no trailing dot. */
export function lookupName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}
