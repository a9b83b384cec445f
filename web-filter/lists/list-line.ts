import { normaliseDomain, type DomainRejection } from "./domain-name";

/**
 * One line of a block list, in any of the three formats operators load, told apart line by line:
 *  - hosts files: `0.0.0.0 ads.example.com` (any address, several names allowed, `#` comments);
 *  - AdBlock-style DNS lists: `||example.com^` (a domain and its subdomains); every other rule (exceptions `@@…`,
 *    rules with `$options`, cosmetic `##…`, paths, regular expressions) is skipped and counted;
 *  - plain domain lists: `example.com` one a line.
 * `!` and `#` start comments, `[Adblock Plus 2.0]` is a header.
 */

export type SkipReason = DomainRejection | "AdBlock exception" | "AdBlock rule with options" | "other AdBlock rule";

export type LineResult = { domains: string[]; skipped: SkipReason[] };

const NOTHING: LineResult = { domains: [], skipped: [] };
const ADDRESS = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)$/i;

function names(raw: string[]): LineResult {
  const out: LineResult = { domains: [], skipped: [] };
  for (const r of raw) {
    const n = normaliseDomain(r);
    if ("domain" in n) out.domains.push(n.domain);
    else out.skipped.push(n.rejected);
  }
  return out;
}

function adblock(rule: string): LineResult {
  if (rule.startsWith("@@")) return { domains: [], skipped: ["AdBlock exception"] };
  const m = /^\|\|([^/^$|*]+)\^(\$.*)?$/.exec(rule);
  if (!m) return { domains: [], skipped: ["other AdBlock rule"] };
  if (m[2]) return { domains: [], skipped: ["AdBlock rule with options"] };
  return names([m[1]]);
}

export function parseListLine(line: string): LineResult {
  const text = line.trim();
  if (!text || text.startsWith("!") || text.startsWith("#") || /^\[adblock/i.test(text)) return NOTHING;
  if (
    text.startsWith("||") ||
    text.startsWith("@@") ||
    text.startsWith("/") ||
    text.includes("##") ||
    text.includes("#@#") ||
    /[$^|]/.test(text)
  )
    return adblock(text);
  const fields = text.replace(/\s#.*$/, "").split(/\s+/);
  if (fields.length > 1 && ADDRESS.test(fields[0])) return names(fields.slice(1));
  if (fields.length === 1) return names(fields);
  return { domains: [], skipped: ["invalid domain"] };
}
