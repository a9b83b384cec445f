import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";

/**
 * The guard in front of every request the server makes to an address a parent typed (webhook endpoints): http or
 * https only, and the host resolved once, here, to addresses that are all public. The request then connects to the
 * address checked (pinnedLookup), so a name that answers differently a moment later (DNS rebinding) cannot send it
 * elsewhere. Private, loopback, link-local, unique-local, multicast and reserved ranges are refused, in IPv4 and IPv6,
 * IPv4-mapped IPv6 included, unless `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=true, development and tests).
 */

/** IPv4 ranges no server-made request may reach: [first address as a number, prefix length, what it is]. */
const V4_BLOCKED: [string, number, string][] = [
  ["0.0.0.0", 8, "this network"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (carrier-grade NAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "IETF protocol assignments"],
  ["192.0.2.0", 24, "documentation"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"],
];

function v4ToNumber(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Reason(ip: string): string | null {
  const n = v4ToNumber(ip);
  for (const [base, bits, what] of V4_BLOCKED) {
    const size = 2 ** (32 - bits);
    const start = v4ToNumber(base);
    if (n >= start && n < start + size) return what;
  }
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included). */
function v6Groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0]!;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const n = v4ToNumber(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const h = head ? head.split(":").filter((s) => s !== "") : [];
  const t = tail !== undefined && tail ? tail.split(":").filter((s) => s !== "") : [];
  const zeros = tail !== undefined ? 8 - h.length - t.length : 0;
  return [...h, ...Array<string>(Math.max(0, zeros)).fill("0"), ...t].map((g) => Number.parseInt(g, 16));
}

function v6Reason(ip: string): string | null {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return "not an address";
  const first6Zero = g.slice(0, 5).every((x) => x === 0);
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judged as the IPv4 address they carry.
  if (first6Zero && (g[5] === 0xffff || g[5] === 0)) {
    if (g[5] === 0 && g[6] === 0) return g[7] === 1 ? "loopback" : "unspecified";
    const v4 = `${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`;
    const r = v4Reason(v4);
    return r ? `${r} (IPv4-mapped)` : g[5] === 0 ? "IPv4-compatible" : null;
  }
  // NAT64 (64:ff9b::/96) reaches the IPv4 address it carries.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const r = v4Reason(`${g[6]! >> 8}.${g[6]! & 0xff}.${g[7]! >> 8}.${g[7]! & 0xff}`);
    if (r) return `${r} (NAT64)`;
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0]! & 0xffc0) === 0xfec0) return "site-local";
  if ((g[0]! & 0xff00) === 0xff00) return "multicast";
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "documentation";
  return null;
}

/** Why an IP address may not be reached (private, loopback, link-local…), or null for a public address. */
export function blockedAddressReason(ip: string): string | null {
  const kind = isIP(ip.replace(/^\[|\]$/g, "").split("%")[0]!);
  if (kind === 4) return v4Reason(ip);
  if (kind === 6) return v6Reason(ip.replace(/^\[|\]$/g, ""));
  return "not an address";
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

export type GuardResult = { ok: true; url: URL; address: string; family: 4 | 6 } | { ok: false; reason: string };

/**
 * Checks an address before a request: the scheme, then every address the host resolves to. The answer names the one
 * address to connect to (pass `pinnedLookup(result)` to http.request). Never throws.
 */
export async function guardUrl(raw: string, o: { allowPrivate: boolean; resolve?: Resolver }): Promise<GuardResult> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a valid address" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "only http:// and https:// addresses" };
  if (url.username || url.password) return { ok: false, reason: "addresses with a user name or password are refused" };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await (o.resolve ?? systemResolver)(host);
    } catch {
      return { ok: false, reason: `the host ${host} could not be resolved` };
    }
    if (!addresses.length) return { ok: false, reason: `the host ${host} could not be resolved` };
  }
  if (!o.allowPrivate)
    for (const a of addresses) {
      const why = blockedAddressReason(a.address);
      if (why) return { ok: false, reason: `${host} is a ${why} address (${a.address}); only public addresses are allowed` };
    }
  const first = addresses[0]!;
  return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup that answers the checked address whatever is asked: the connection goes where the guard looked. */
export function pinnedLookup(checked: { address: string; family: 4 | 6 }): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address: checked.address, family: checked.family }]);
    else cb(null, checked.address, checked.family);
  }) as unknown as LookupFunction;
}
